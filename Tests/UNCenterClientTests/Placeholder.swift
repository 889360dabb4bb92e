import XCTest

final class UNCenterClientTestsPlaceholder: XCTestCase {
  func testPlaceholder() {}
}
