import XCTest

@testable import UNModel

/// `advanceClock` keeps the clock within RFC 3339's years.
final class AdvanceBoundsTests: XCTestCase {
  func testTheRFC3339RangeIsTheFourDigitYears() {
    XCTAssertEqual(Instant.earliestRFC3339.rfc3339, "0000-01-01T00:00:00.000Z")
    XCTAssertEqual(Instant.latestRFC3339.rfc3339, "9999-12-31T23:59:59.999Z")
    XCTAssertTrue(Instant.earliestRFC3339.isRFC3339)
    XCTAssertTrue(Instant.latestRFC3339.isRFC3339)
    XCTAssertFalse(Instant.earliestRFC3339.adding(milliseconds: -1).isRFC3339)
    XCTAssertFalse(Instant.latestRFC3339.adding(milliseconds: 1).isRFC3339)
    XCTAssertEqual(Instant(rfc3339: "9999-12-31T23:59:59.999Z"), Instant.latestRFC3339)
  }

  func testAnAdvancePastYear9999IsRefusedNamingSecondsAndChangesNothing() throws {
    let clock = ManualClock(Instant(rfc3339: "9999-12-31T23:00:00Z")!)
    let center = Center(clock: clock)
    _ = try center.schedule(app: "a", request("r", content(), interval(60, repeats: true)))
    _ = center.takeEffects()
    for seconds in [3600, 3599.9995, 100.0 * 366 * 86_400] {
      do {
        _ = try center.advanceClock(seconds: seconds)
        XCTFail("advanced \(seconds) s from 9999-12-31T23:00:00Z")
      } catch {
        guard case .invalidParams(let field, let problem) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(field, "seconds")
        XCTAssertTrue(problem.contains("9999-12-31T23:59:59.999Z"), problem)
        XCTAssertTrue(problem.contains("at most 3599.999 seconds"), problem)
      }
    }
    XCTAssertEqual(clock.now.rfc3339, "9999-12-31T23:00:00.000Z")
    XCTAssertEqual(center.app("a").pending["r"]?.nextDate.rfc3339, "9999-12-31T23:01:00.000Z")
    XCTAssertTrue(center.takeEffects().isEmpty, "nothing fired")

    let last = try center.advanceClock(seconds: 3599.999)
    XCTAssertEqual(last.now, Instant.latestRFC3339)
    XCTAssertEqual(last.fired.count, 59)
    XCTAssertThrowsError(try center.advanceClock(seconds: 0.001))
    XCTAssertEqual(try center.advanceClock(seconds: 0).now, Instant.latestRFC3339)
  }
}
