import UNServer
import XCTest

final class BusyPollOptionTests: XCTestCase {
  func testBusyPollDefaultsTo100MicrosecondsAndTakesZero() throws {
    XCTAssertEqual(try ServerConfiguration.parse([]).0.busyPollMicroseconds, 100)
    XCTAssertEqual(try ServerConfiguration.parse(["--busy-poll", "0"]).0.busyPollMicroseconds, 0)
    XCTAssertEqual(try ServerConfiguration.parse(["--busy-poll=250"]).0.busyPollMicroseconds, 250)
    XCTAssertThrowsError(try ServerConfiguration.parse(["--busy-poll", "-1"])) { error in
      XCTAssertEqual("\(error)", "--busy-poll: '-1' is not an integer >= 0")
    }
    XCTAssertTrue(ServerConfiguration.usage.contains("--busy-poll MICROSECONDS"))
  }
}
