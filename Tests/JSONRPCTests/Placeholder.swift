import XCTest

final class JSONRPCTestsPlaceholder: XCTestCase {
  func testPlaceholder() {}
}
