import XCTest

final class unctlTestsPlaceholder: XCTestCase {
  func testPlaceholder() {}
}
