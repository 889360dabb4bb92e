import UNModel
import XCTest

final class InstantTests: XCTestCase {
  func testFormatsRFC3339WithMilliseconds() {
    XCTAssertEqual(Instant(milliseconds: 0).rfc3339, "1970-01-01T00:00:00.000Z")
    XCTAssertEqual(Instant(milliseconds: 1_798_653_605_007).rfc3339, "2026-12-30T18:00:05.007Z")
    XCTAssertEqual(Instant(milliseconds: -1).rfc3339, "1969-12-31T23:59:59.999Z")
    XCTAssertEqual(Instant(rfc3339: "2024-02-29T23:59:59.123Z")!.rfc3339, "2024-02-29T23:59:59.123Z")
  }

  func testFormattingRoundTripsThroughTheParserFromYear0To9999() {
    // Every digit position takes many values: a step that is no round number of days,
    // hours, minutes, seconds or milliseconds.
    var ms: Int64 = -62_167_219_200_000  // 0000-01-01T00:00:00.000Z
    let last: Int64 = 253_402_300_799_999  // 9999-12-31T23:59:59.999Z
    var count = 0
    while ms <= last {
      let text = Instant(milliseconds: ms).rfc3339
      XCTAssertEqual(text.utf8.count, 24, text)
      XCTAssertEqual(Instant(rfc3339: text)?.milliseconds, ms, text)
      ms += 3_155_760_000_007 / 997
      count += 1
    }
    XCTAssertEqual(Instant(milliseconds: last).rfc3339, "9999-12-31T23:59:59.999Z")
    XCTAssertGreaterThan(count, 90_000)
  }

  func testParsesOffsetsAndFractions() {
    XCTAssertEqual(Instant(rfc3339: "2026-01-01T08:00:00Z")!.rfc3339, "2026-01-01T08:00:00.000Z")
    XCTAssertEqual(Instant(rfc3339: "2026-01-01T09:30:00+01:30")!.rfc3339, "2026-01-01T08:00:00.000Z")
    XCTAssertEqual(Instant(rfc3339: "2026-01-01T08:00:00.5Z")!.milliseconds % 1000, 500)
    XCTAssertEqual(Instant(rfc3339: "2026-01-01T08:00:00.123456Z")!.milliseconds % 1000, 123)
  }

  func testRejectsInvalidDates() {
    for bad in [
      "", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-01-01 08:00", "2026-01-01T24:00:00Z",
      "2026-01-01T08:00:00", "2026-01-01T08:00:00.Z", "2026-01-01T08:00:00Zjunk",
    ] {
      XCTAssertNil(Instant(rfc3339: bad), bad)
    }
  }

  func testCivilDateRoundTripsOverFourCenturies() {
    var day: Int64 = -146_097
    while day < 2 * 146_097 {
      let (y, m, d) = CivilDate.fromDays(day)
      XCTAssertEqual(CivilDate.days(year: y, month: m, day: d), day)
      day += 17
    }
  }
}
