import XCTest

final class UNModelTestsPlaceholder: XCTestCase {
  func testPlaceholder() {}
}
