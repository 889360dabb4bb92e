import XCTest

@testable import UNModel

/// The layout of a pending record: every field read back as stored, whatever the width
/// of its end offsets (1, 2 or 4 bytes) and wherever its trigger is kept (inline or in
/// the out-of-line box), and the size of the bench's typical request.
final class PendingRecordTests: XCTestCase {
  private func make(_ entry: PendingRequest) -> PendingRecord {
    PendingRecord.make(
      entry.request, anchor: entry.anchor, nextDate: entry.nextDate, addedSequence: entry.addedSequence)
  }

  private func fields(_ r: NotificationRequest) -> [String] {
    [
      r.identifier, r.content.title, r.content.body, r.content.categoryIdentifier, r.content.threadIdentifier,
      String(decoding: r.content.userInfo.bytes, as: UTF8.self),
    ]
  }

  /// Every field through the value, the view and the field accessors.
  private func assertRoundTrip(
    _ entry: PendingRequest, _ record: PendingRecord, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(record.entry, entry, file: file, line: line)
    XCTAssertEqual(record.identifier, entry.identifier, file: file, line: line)
    XCTAssertEqual(record.nextDate, entry.nextDate, file: file, line: line)
    XCTAssertEqual(record.addedSequence, entry.addedSequence, file: file, line: line)
    XCTAssertEqual(record.trigger, entry.request.trigger, file: file, line: line)
    let view = PendingView(record: record)
    XCTAssertEqual(view.anchor, entry.anchor, file: file, line: line)
    XCTAssertEqual(view.trigger, entry.request.trigger, file: file, line: line)
    XCTAssertEqual(view.hasOnlyCommonContent, entry.request.content.extrasBox == nil, file: file, line: line)
    func strings(_ t: PendingTexts) -> [String] {
      [t.identifier, t.title, t.body, t.categoryIdentifier, t.threadIdentifier, t.userInfo].map {
        String(decoding: $0, as: UTF8.self)
      }
    }
    var visited: [String] = []
    view.visitTexts { visited = strings($0) }
    XCTAssertEqual(visited, fields(entry.request), "visitTexts", file: file, line: line)
    XCTAssertEqual(view.withTexts { strings($0) }, fields(entry.request), "withTexts", file: file, line: line)
    XCTAssertEqual(record.clone().entry, entry, "clone", file: file, line: line)
  }

  private func entry(_ request: NotificationRequest, sequence: UInt64 = 7) -> PendingRequest {
    PendingRequest(
      request: request, anchor: start.adding(milliseconds: -1234), nextDate: start.adding(milliseconds: 86_400_000),
      addedSequence: sequence)
  }

  /// Text sizes that need one-, two- and four-byte end offsets, with the edges.
  func testEveryFieldRoundTripsAtEveryOffsetWidth() {
    for total in [0, 1, 200, 255, 256, 1000, 65_535, 65_536, 70_000] {
      // Spread `total` bytes over the six fields, userInfo being valid JSON.
      let userInfo = total >= 8 ? #"{"k":""# + String(repeating: "u", count: total / 6) + #""}"# : "{}"
      let rest = max(0, total - userInfo.utf8.count)
      var c = content(
        String(repeating: "t", count: rest / 5), category: String(repeating: "c", count: rest / 5),
        thread: String(repeating: "h", count: rest / 5))
      c.body = String(repeating: "b", count: rest / 5)
      c.userInfo = JSONText(bytes: Array(userInfo.utf8))
      let id = String(repeating: "i", count: rest - 4 * (rest / 5))
      let e = entry(request(id, c, interval(86_400)))
      assertRoundTrip(e, make(e))
    }
  }

  func testEmptyFieldsAtEveryPositionRoundTrip() {
    for empty in 0..<6 {
      var values = ["id", "title", "body", "cat", "thread", #"{"a":1}"#]
      values[empty] = empty == 5 ? "{}" : ""
      var c = content(values[1], category: values[3], thread: values[4])
      c.body = values[2]
      c.userInfo = JSONText(bytes: Array(values[5].utf8))
      let e = entry(request(values[0], c, interval(5)))
      assertRoundTrip(e, make(e))
    }
  }

  func testEveryTriggerKindRoundTrips() throws {
    let calendar = Trigger.calendar(
      try CalendarTrigger(dateMatching: .init(hour: 9, minute: 30), timeZone: "Europe/Warsaw", repeats: true))
    // Milliseconds that do not follow from the seconds go out of line, as they are.
    var odd = try TimeIntervalTrigger(seconds: 90, repeats: true)
    odd.milliseconds = 90_001
    let triggers: [Trigger?] = [
      nil, interval(0.0004), interval(86_400), interval(61.5, repeats: true), interval(3.1e9), .push, calendar,
      .timeInterval(odd),
    ]
    for trigger in triggers {
      let e = entry(request("t", content("x"), trigger))
      assertRoundTrip(e, make(e))
    }
  }

  func testLargeDatesAndSequencesRoundTrip() {
    for (date, sequence) in [(Int64.min, UInt64.max), (Int64.max, 0), (-1, 1 << 63)] {
      let e = PendingRequest(
        request: request("d", content("x"), interval(1)), anchor: Instant(milliseconds: date),
        nextDate: Instant(milliseconds: date &+ 1), addedSequence: sequence)
      assertRoundTrip(e, make(e))
    }
  }

  func testExtrasAndNonASCIIRoundTrip() {
    var c = content("Tytuł ✓", category: "wiadomość", thread: "wątek", badge: 3)
    c.subtitle = "sub"
    c.userInfo = JSONText(bytes: Array(#"{"k":[1,2,"ż"]}"#.utf8))
    let e = entry(request("zażółć", c, interval(60, repeats: true)))
    let r = make(e)
    assertRoundTrip(e, r)
  }

  /// An overwrite may change the offsets' width within the same allocation.
  func testOverwriteChangesWidthInPlace() {
    var c = content("t")
    c.body = String(repeating: "b", count: 600)
    let wide = entry(request("same", c, interval(10)))
    let r = make(wide)
    XCTAssertEqual(r.header.flags.endWidth, 2)
    let narrow = entry(request("same", content("short"), .push), sequence: 8)
    XCTAssertTrue(r.overwrite(narrow.request, anchor: narrow.anchor, nextDate: narrow.nextDate, addedSequence: 8))
    XCTAssertEqual(r.header.flags.endWidth, 1)
    assertRoundTrip(narrow, r)
    XCTAssertTrue(r.overwrite(wide.request, anchor: wide.anchor, nextDate: wide.nextDate, addedSequence: 7))
    assertRoundTrip(wide, r)
  }

  /// The bench's request (title "Standup", a 34-byte body, "reminder", "team",
  /// `{"seq":N}`, a one-shot day-long interval) fits a 160-byte malloc chunk: header
  /// and text with one-byte offsets, and no out-of-line box.
  func testTypicalRequestIsOneSmallAllocation() {
    var c = Content()
    c.title = "Standup"
    c.categoryIdentifier = "reminder"
    c.threadIdentifier = "team"
    c.body = "Daily standup in 5 minutes, room 4"
    c.userInfo = JSONText(bytes: Array(#"{"seq":123456}"#.utf8))
    let e = entry(request("p-a1b2c3-123456", c, interval(86_400)))
    let r = make(e)
    XCTAssertNil(r.header.rare)
    XCTAssertEqual(r.header.flags.endWidth, 1)
    XCTAssertEqual(MemoryLayout<PendingRecordHeader>.size, 45)
    let object = UnsafeRawPointer(Unmanaged.passUnretained(r).toOpaque())
    let elements = r.withUnsafeMutablePointerToElements { UnsafeRawPointer($0) - object }
    XCTAssertEqual(elements, 16 + 45)
    #if os(Linux)
      // `capacity` is what glibc's malloc gave (malloc_usable_size): 152 of a 160-byte chunk.
      XCTAssertLessThanOrEqual(elements + r.capacity, 152)
    #endif
    assertRoundTrip(e, r)
  }
}
