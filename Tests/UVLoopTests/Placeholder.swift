import XCTest

final class UVLoopTestsPlaceholder: XCTestCase {
  func testPlaceholder() {}
}
