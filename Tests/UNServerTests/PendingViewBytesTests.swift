import JSONRPC
import UNModel
import UNProtocol
import XCTest

@testable import UNServer

/// A listing written from views of the stored records must be byte for byte what the
/// request values give, on the view's fast path and off it.
final class PendingViewBytesTests: XCTestCase {
  private func contents() -> [Content] {
    var plain = Content()
    plain.title = "Standup"
    plain.body = "Daily standup in five minutes, \"room\" 4\n\t\u{1}\\ ünï 😀"
    plain.categoryIdentifier = "reminder"
    plain.threadIdentifier = "team"
    plain.userInfo = JSONText(bytes: Array(#"{"seq":77,"nested":{"a":[1,2.5,"ü"]}}"#.utf8))
    var long = plain
    long.title = String(repeating: "Tytuł ", count: 30)
    long.categoryIdentifier = String(repeating: "c", count: 16)
    long.threadIdentifier = "wątek \"x\""
    var subtitled = plain
    subtitled.subtitle = "sub"
    var badged = plain
    badged.badge = 0
    var defaultExtras = plain
    defaultExtras.subtitle = ""
    return [Content(), plain, long, subtitled, badged, defaultExtras]
  }

  private func triggers() throws -> [Trigger?] {
    [
      .timeInterval(try TimeIntervalTrigger(seconds: 86400, repeats: false)),
      .timeInterval(try TimeIntervalTrigger(seconds: 90.5, repeats: true)),
      .timeInterval(try TimeIntervalTrigger(seconds: 1e9 + 0.25, repeats: false)),
      .timeInterval(try TimeIntervalTrigger(seconds: 0.001, repeats: false)),
      .calendar(try CalendarTrigger(dateMatching: .init(hour: 9, minute: 30), timeZone: "Europe/Rome", repeats: true)),
      .push, nil,
    ]
  }

  func testViewBytesEqualTheRequestBytes() throws {
    var schedule = PendingSchedule()
    var count = 0
    for (i, content) in contents().enumerated() {
      for (j, trigger) in try triggers().enumerated() {
        let id = ["r-\(i)-\(j)", "ж-\(i)-\(j)-long-identifier-\u{7f}", "q\"\(i)\\\(j)"][(i + j) % 3]
        schedule.upsert(
          PendingRequest(
            request: NotificationRequest(identifier: id, content: content, trigger: trigger),
            anchor: Instant(milliseconds: 1_767_254_400_000),
            nextDate: Instant(milliseconds: 1_767_254_400_000 + Int64(j) * 1_234), addedSequence: UInt64(count)))
        count += 1
      }
    }
    var visited = 0
    _ = schedule.visitOrderedViews(after: nil, limit: .max) { view in
      var writer = ByteWriter(capacity: 16)
      WireBytes.pending(view, &writer)
      let fromView = writer.finish()
      var fromValue: [UInt8] = []
      RequestShape.encode(view.entry, &fromValue)
      XCTAssertEqual(String(decoding: fromView, as: UTF8.self), String(decoding: fromValue, as: UTF8.self))
      visited += 1
    }
    XCTAssertEqual(visited, count)
  }

  func testBytesOfUTF8EqualTheStringWriter() {
    for s in ["", "a", "\"", "\\", "\u{0}\u{1f}", "plain text longer than fifteen", "zażółć \n gęślą \"jaźń\" 😀"] {
      var a: [UInt8] = []
      JSONWriter.appendString(s, to: &a)
      var b: [UInt8] = []
      Array(s.utf8).withUnsafeBufferPointer { JSONWriter.appendString(utf8: $0, to: &b) }
      XCTAssertEqual(a, b, s)
      // The byte writer's copy, starting small enough to grow on the longer ones.
      var writer = ByteWriter(capacity: 1)
      writer.append(#"{"k":"#)
      let utf8 = Array(s.utf8)
      utf8.withUnsafeBufferPointer { writer.appendString(utf8: $0) }
      let written = writer.finish()
      XCTAssertEqual(written, Array(#"{"k":"#.utf8) + a, s)
    }
  }
}
