import JSONRPC
import UNProtocol
import XCTest

@testable import UNModel
@testable import UNServer

/// A pending request's stored row reads back as the same request, whichever fields it
/// sets, and leaves out the fields at their defaults.
final class StateRowTests: XCTestCase {
  private let t0 = Instant(milliseconds: 1_767_254_400_000)

  private func roundTrip(_ p: PendingRequest, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let row = StateCodec.pendingRow(p)
    let value = try JSONParser.parse(row)
    XCTAssertEqual(try StateCodec.decodePending(value), p, file: file, line: line)
    return String(decoding: row, as: UTF8.self)
  }

  private func pending(_ content: Content, _ trigger: Trigger?) -> PendingRequest {
    PendingRequest(
      request: NotificationRequest(identifier: "id-\"1\"", content: content, trigger: trigger), anchor: t0,
      nextDate: t0.adding(milliseconds: 60_000), addedSequence: 42)
  }

  func testDefaultContentIsWrittenAsAnEmptyList() throws {
    let row = try roundTrip(pending(Content(), .timeInterval(try TimeIntervalTrigger(seconds: 60, repeats: true))))
    XCTAssertEqual(row, #"["id-\"1\"",[],[60],1767254400000,1767254460000,42]"#)
  }

  /// Common content is positional up to its last field that is not a default, the
  /// defaults before it written as "" and {}; a whole-second interval is bare.  Every
  /// other trigger keeps the wire's object, and content with an uncommon field set stays
  /// an object.
  func testCommonRowsAreShortAndReadBack() throws {
    let whole = Trigger.timeInterval(try TimeIntervalTrigger(seconds: 86400, repeats: false))
    var c = Content()
    c.title = "Standup"
    XCTAssertEqual(try roundTrip(pending(c, whole)), #"["id-\"1\"",["Standup"],86400,1767254400000,1767254460000,42]"#)
    c = Content()
    c.threadIdentifier = "team"
    XCTAssertEqual(
      try roundTrip(pending(c, whole)), #"["id-\"1\"",["","",{},"","team"],86400,1767254400000,1767254460000,42]"#)
    c.body = "a \"b\""
    c.userInfo = JSONText(bytes: Array(#"{"k":[1,2]}"#.utf8))
    XCTAssertEqual(
      try roundTrip(pending(c, whole)),
      #"["id-\"1\"",["","a \"b\"",{"k":[1,2]},"","team"],86400,1767254400000,1767254460000,42]"#)
    let fractional = Trigger.timeInterval(try TimeIntervalTrigger(seconds: 90.5, repeats: false))
    XCTAssertTrue(try roundTrip(pending(c, fractional)).contains(#"{"type":"timeInterval","timeInterval":90.5,"#))
    XCTAssertTrue(try roundTrip(pending(c, nil)).contains(#""team"],null,"#))
    var rare = c
    rare.badge = 3
    XCTAssertTrue(try roundTrip(pending(rare, whole)).contains(#","badge":3"#))
  }

  /// Shapes no writer makes are reported, not guessed at.
  func testMalformedShortRowsAreCorrupt() throws {
    for row in [
      #"["r",["a","b",{},"c","d","e"],60,1767254400000,1767254460000,42]"#,
      #"["r",["a"],[60,1],1767254400000,1767254460000,42]"#,
      #"["r",[1],60,1767254400000,1767254460000,42]"#,
    ] {
      XCTAssertThrowsError(try StateCodec.decodePending(try JSONParser.parse(Array(row.utf8))), row)
    }
  }

  func testEveryContentFieldRoundTrips() throws {
    var c = Content()
    c.title = "Tytuł"
    c.subtitle = "s"
    c.body = "line\nbreak"
    c.badge = 0
    c.sound = .named("")
    c.userInfo = JSONText(bytes: Array(#"{"a":[1,{"b":null}]}"#.utf8))
    c.categoryIdentifier = "c"
    c.threadIdentifier = "t"
    c.summaryArgument = "Alice"
    c.summaryArgumentCount = 3
    c.targetContentIdentifier = ""
    c.interruptionLevel = .critical
    c.relevanceScore = 0.25
    c.launchImageName = "l"
    c.filterCriteria = ""
    _ = try roundTrip(pending(c, .timeInterval(try TimeIntervalTrigger(seconds: 1.5, repeats: false))))
    c.sound = .default
    let calendar = try CalendarTrigger(
      dateMatching: .init(year: nil, month: nil, day: nil, hour: 8, minute: 30, second: nil, weekday: 2),
      timeZone: "Europe/Warsaw", repeats: true)
    _ = try roundTrip(pending(c, .calendar(calendar)))
    _ = try roundTrip(pending(c, .push))
    _ = try roundTrip(pending(c, nil))
  }

  func testRowFromTheStoredRecordIsTheSameBytes() throws {
    var schedule = PendingSchedule()
    var requests: [PendingRequest] = []
    var common = Content()
    common.title = "Standup"
    common.body = "Daily \"standup\" — room 4"
    common.categoryIdentifier = "reminder"
    common.threadIdentifier = "team"
    common.userInfo = JSONText(bytes: Array(#"{"seq":1}"#.utf8))
    var rare = common
    rare.badge = 2
    var plain = common
    plain.body = "Daily standup, room 4"
    var sparse = Content()
    sparse.body = "b"
    let interval = Trigger.timeInterval(try TimeIntervalTrigger(seconds: 86400.5, repeats: false))
    // Whole seconds and plain texts: the rows written through a cursor.
    let whole = Trigger.timeInterval(try TimeIntervalTrigger(seconds: 86400, repeats: false))
    let repeating = Trigger.timeInterval(try TimeIntervalTrigger(seconds: 60, repeats: true))
    for (i, (content, trigger)) in [
      (common, interval), (Content(), interval), (rare, interval), (common, nil), (common, whole), (plain, whole),
      (plain, repeating), (Content(), whole), (sparse, repeating),
    ].enumerated() {
      var p = pending(content, trigger)
      p.request.identifier = "id-\(i)-é"
      requests.append(p)
      schedule.upsert(p)
    }
    for p in requests {
      let view = try XCTUnwrap(schedule.view(p.identifier))
      let fromView = StateCodec.pendingRow(view)
      XCTAssertEqual(
        String(decoding: fromView, as: UTF8.self), String(decoding: StateCodec.pendingRow(p), as: UTF8.self))
      XCTAssertEqual(try StateCodec.decodePending(try JSONParser.parse(fromView)), p)
    }
  }

  /// An event's row is the same bytes whether written field by field or, for the common
  /// shapes with nothing to escape, through a cursor; and it reads back as the event.
  func testEventRowsAreTheSameBytesEitherWay() throws {
    var events = [
      Event(.scheduled, app: "com.bench", date: t0, identifier: "r-1", nextTriggerDate: t0),
      Event(.removed, app: "com.bench", date: Instant(milliseconds: -5), identifier: "r-1"),
      Event(.scheduled, app: "a\"b", date: t0, identifier: "r-2", nextTriggerDate: t0),
      Event(.fired, app: "a", date: t0, identifier: "line\nbreak é"),
      Event(.delivered, app: "a", date: t0, identifier: ""),
      Event(.removed, app: "a", date: t0, [("list", .string("pending")), ("identifiers", .strings(["x", "y"]))]),
    ]
    for (i, _) in events.enumerated() { events[i].sequence = UInt64(i + 1) * 1_000_003 }
    for e in events {
      var fields: [UInt8] = []
      StateCodec.eventRowFields(e, into: &fields)
      XCTAssertEqual(String(decoding: StateCodec.eventRow(e), as: UTF8.self), String(decoding: fields, as: UTF8.self))
      let back = try StateCodec.decodeEvent(try JSONParser.parse(fields))
      XCTAssertEqual(back, e)
      XCTAssertEqual(back.sequence, e.sequence)
    }
    // The short form for an identifier (and a date), the list for anything else.
    XCTAssertEqual(
      String(decoding: StateCodec.eventRow(events[1]), as: UTF8.self), #"[2000006,"removed","com.bench",-5,"r-1"]"#)
    XCTAssertTrue(
      String(decoding: StateCodec.eventRow(events[5]), as: UTF8.self).hasSuffix(#"["identifiers","S",["x","y"]]]]"#))
  }

  /// A cursor writes numbers with the same digits as `String`, and tells plain text from
  /// text to escape however long it is.
  func testRowCursorNumbersAndPlainText() {
    var values: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, -1, -10, -1_767_254_400_000, .max, .min]
    var p: Int64 = 1
    while p < Int64.max / 10 {
      p *= 10
      values += [p - 1, p, p + 1, -p]
    }
    for v in values {
      var row: [UInt8] = []
      _ = RowCursor.write(&row, room: 64) { c in
        c.integer(v)
        c.byte(UInt8(ascii: " "))
        c.integer(v.magnitude)
        return true
      }
      XCTAssertEqual(String(decoding: row, as: UTF8.self), "\(v) \(v.magnitude)")
    }
    var huge: [UInt8] = []
    _ = RowCursor.write(&huge, room: 64) { c in
      c.integer(UInt64.max)
      return true
    }
    XCTAssertEqual(String(decoding: huge, as: UTF8.self), String(UInt64.max))
    // Every length, at random (the 8-digit halves of 9 to 16 digits, the general path).
    var generator = SystemRandomNumberGenerator()
    for digits in 1...20 {
      for _ in 0..<200 {
        let low: UInt64 = digits == 1 ? 0 : (1..<digits).reduce(1) { n, _ in n * 10 }
        let high: UInt64 = digits == 20 ? .max : (0..<digits).reduce(1) { n, _ in n * 10 } - 1
        let v = UInt64.random(in: low...max(low, high), using: &generator)
        var row: [UInt8] = []
        _ = RowCursor.write(&row, room: 64) { c in
          c.integer(v)
          return true
        }
        XCTAssertEqual(String(decoding: row, as: UTF8.self), String(v))
      }
    }
    for length in 0..<20 {
      for bad: UInt8 in [0x00, 0x1F, 0x22, 0x5C] {
        for at in 0..<max(length, 1) {
          var text = [UInt8](repeating: UInt8(ascii: "a"), count: max(length, 1))
          XCTAssertNotNil(quoted(text))
          text[at] = bad
          XCTAssertNil(quoted(text), "\(bad) at \(at) of \(text.count)")
        }
      }
    }
    // Copied as tested: the same bytes, quoted, whatever the length.
    for length in 0..<40 {
      let text = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      XCTAssertEqual(quoted(text), "\"" + String(decoding: text, as: UTF8.self) + "\"")
    }
    XCTAssertEqual(quoted(Array("é ~\u{7F} and more é".utf8)), "\"é ~\u{7F} and more é\"")
  }

  /// `text` written by `RowCursor.plainQuoted`, nil when it refuses it.
  private func quoted(_ text: [UInt8]) -> String? {
    var row: [UInt8] = []
    // Room for the text, its quotes and the word a short text is written with.
    let plain = RowCursor.write(&row, room: text.count + 2 + 8) { c in
      text.withUnsafeBufferPointer { c.plainQuoted($0) }
    }
    return plain ? String(decoding: row, as: UTF8.self) : nil
  }

  /// The globals row written straight as bytes is the same as the value's encoding.
  func testGlobalsRowIsTheValueEncoded() throws {
    var s = CenterSnapshot()
    var snapshots = [s]
    s.deliverySequence = 7
    s.additionSequence = 1_234_567
    s.responseCounter = 3
    s.pushCounter = 10
    s.modificationCounter = 99
    snapshots.append(s)
    s.deviceLocked = true
    s.clock = t0
    s.eventSequence = 2_000
    snapshots.append(s)
    s.openResponses["r1"] = ("com.a", t0)
    snapshots.append(s)
    for snapshot in snapshots {
      let row = StateCodec.globalsRow(snapshot)
      XCTAssertEqual(
        String(decoding: row, as: UTF8.self), String(decoding: StateCodec.globals(snapshot).encoded(), as: UTF8.self))
      var back = CenterSnapshot()
      try StateCodec.decodeGlobals(try JSONParser.parse(row), into: &back)
      XCTAssertEqual(back.additionSequence, snapshot.additionSequence)
      XCTAssertEqual(back.clock, snapshot.clock)
    }
  }

  func testFieldsAtTheirDefaultsAreLeftOut() throws {
    var c = Content()
    c.title = "Standup"
    c.summaryArgumentCount = 1
    c.interruptionLevel = .active
    c.relevanceScore = 0
    let row = try roundTrip(pending(c, nil))
    XCTAssertTrue(row.contains(#",{"title":"Standup"},"#), row)
  }

  /// Rows as written before schema 4, objects with named members, still read back.
  func testRowsOfTheEarlierFormLoad() throws {
    var c = Content()
    c.title = "Standup"
    c.userInfo = JSONText(bytes: Array(#"{"seq":1}"#.utf8))
    var p = pending(c, .timeInterval(try TimeIntervalTrigger(seconds: 60, repeats: true)))
    p.request.identifier = "r-1"
    let earlier =
      #"{"request":{"identifier":"r-1","content":{"title":"Standup","userInfo":{"seq":1}},"#
      + #""trigger":{"type":"timeInterval","timeInterval":60,"repeats":true}},"#
      + #""anchor":1767254400000,"next":1767254460000,"added":42}"#
    XCTAssertEqual(try StateCodec.decodePending(try JSONParser.parse(Array(earlier.utf8))), p)
    // Schema 4 and 5: an array, with the content and trigger as objects.
    let fifth =
      #"["r-1",{"title":"Standup","userInfo":{"seq":1}},{"type":"timeInterval","timeInterval":60,"repeats":true},"#
      + #"1767254400000,1767254460000,42]"#
    XCTAssertEqual(try StateCodec.decodePending(try JSONParser.parse(Array(fifth.utf8))), p)
    XCTAssertEqual(
      String(decoding: StateCodec.pendingRow(p), as: UTF8.self),
      #"["r-1",["Standup","",{"seq":1}],[60],1767254400000,1767254460000,42]"#)
    var e = Event(.scheduled, app: "a", date: t0, identifier: "n1", nextTriggerDate: t0.adding(milliseconds: 5))
    e.sequence = 7
    let earlierEvent =
      #"{"seq":7,"type":"scheduled","app":"a","date":1767254400000,"#
      + #""fields":[["identifier","s","n1"],["nextTriggerDate","d",1767254400005]]}"#
    XCTAssertEqual(try StateCodec.decodeEvent(try JSONParser.parse(Array(earlierEvent.utf8))), e)
    // Schema 4 and 5: an array, with the fields as a list.
    let fifthEvent =
      #"[7,"scheduled","a",1767254400000,[["identifier","s","n1"],["nextTriggerDate","d",1767254400005]]]"#
    XCTAssertEqual(try StateCodec.decodeEvent(try JSONParser.parse(Array(fifthEvent.utf8))), e)
    XCTAssertEqual(
      String(decoding: StateCodec.eventRow(e), as: UTF8.self), #"[7,"scheduled","a",1767254400000,"n1",1767254400005]"#)
  }

  /// The time-interval trigger a row holds reads back as the same trigger, whole and
  /// fractional intervals alike, and whole seconds are written without a fraction.
  func testTimeIntervalTriggerBytesRoundTrip() throws {
    for seconds in [0.001, 0.5, 1, 59.5, 60, 61.25, 3_600, 86_400.75, 1e9, TimeIntervalTrigger.maxSeconds] {
      for repeats in [false, true] where !repeats || seconds >= 60 {
        let t = try TimeIntervalTrigger(seconds: seconds, repeats: repeats)
        var bytes: [UInt8] = []
        TriggerShape.encode(.timeInterval(t), &bytes)
        let tree = try bytes.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in
          try JSONParser.parse(b)
        }
        XCTAssertEqual(try TriggerShape.decode(tree), .timeInterval(t), "\(seconds)")
        if seconds == 3_600 {
          XCTAssertEqual(
            String(decoding: bytes, as: UTF8.self),
            #"{"type":"timeInterval","timeInterval":3600,"repeats":\#(repeats)}"#)
        }
      }
    }
  }
}
