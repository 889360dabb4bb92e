import XCTest

final class UNServerTestsPlaceholder: XCTestCase {
  func testPlaceholder() {}
}
