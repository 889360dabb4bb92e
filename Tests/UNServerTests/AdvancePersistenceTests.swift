import Foundation
import JSONRPC
import UNModel
import XCTest

@testable import UNServer

/// The manual clock a store keeps is a date RFC 3339 can write.
final class AdvancePersistenceTests: XCTestCase {
  /// A clock past 9999 (which an older daemon could store) is refused at load, as any
  /// row the daemon's rules could not have written is; the last date of 9999 is kept.
  func testAStoredClockOutsideRFC3339IsRefusedAtLoad() throws {
    for (clock, valid) in [
      (Instant.latestRFC3339, true), (Instant.latestRFC3339.adding(milliseconds: 1), false),
      (Instant.earliestRFC3339, true), (Instant.earliestRFC3339.adding(milliseconds: -1), false),
    ] {
      var snapshot = CenterSnapshot()
      snapshot.clock = clock
      let row = StateCodec.globalsRow(snapshot)
      var back = CenterSnapshot()
      do {
        try StateCodec.decodeGlobals(try JSONParser.parse(row), into: &back)
        XCTAssertTrue(valid, "a stored clock at \(clock) was loaded")
        XCTAssertEqual(back.clock, clock)
      } catch let error as StateCodec.Corrupt {
        XCTAssertFalse(valid, "\(clock): \(error)")
        XCTAssertTrue(error.description.contains("clock"), error.description)
      }
    }
  }
}
