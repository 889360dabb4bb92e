import JSONRPC
import UNModel
import XCTest

@testable import UNServer

/// The byte writers of the hot results must produce exactly what the tree encoders do.
final class WireBytesTests: XCTestCase {
  private func requests() throws -> [PendingRequest] {
    var plain = Content()
    plain.title = "Standup"
    plain.body = "Daily standup in five minutes, \"room\" 4\n"
    plain.categoryIdentifier = "reminder"
    plain.threadIdentifier = "team"
    plain.userInfo = JSONText(bytes: Array(#"{"seq":77,"nested":{"a":[1,2.5,"ü"]}}"#.utf8))
    var full = plain
    full.subtitle = "sub"
    full.badge = 3
    full.sound = .named("chime.caf")
    full.summaryArgument = "Alice"
    full.summaryArgumentCount = 2
    full.targetContentIdentifier = "target"
    full.interruptionLevel = .timeSensitive
    full.relevanceScore = 0.25
    full.launchImageName = "launch"
    full.filterCriteria = "work"
    var defaultSound = plain
    defaultSound.sound = .default
    let calendar = try CalendarTrigger(
      dateMatching: .init(hour: 9, minute: 30), timeZone: "Europe/Rome", repeats: true)
    let triggers: [Trigger?] = [
      .timeInterval(try TimeIntervalTrigger(seconds: 86400, repeats: false)),
      .timeInterval(try TimeIntervalTrigger(seconds: 90.5, repeats: true)), .calendar(calendar), .push, nil,
    ]
    var out: [PendingRequest] = []
    for (i, content) in [plain, full, defaultSound].enumerated() {
      for (j, trigger) in triggers.enumerated() {
        let request = NotificationRequest(identifier: "r-\(i)-\(j)", content: content, trigger: trigger)
        out.append(
          PendingRequest(
            request: request, anchor: Instant(milliseconds: 1_767_254_400_000),
            nextDate: Instant(milliseconds: 1_767_254_400_000 + Int64(j) * 1_234), addedSequence: UInt64(i)))
      }
    }
    return out
  }

  func testPendingBytesEqualTheTreeEncoding() throws {
    for p in try requests() {
      var bytes: [UInt8] = []
      WireBytes.pending(p, &bytes)
      XCTAssertEqual(
        String(decoding: bytes, as: UTF8.self), String(decoding: ModelEncoding.pending(p).encoded(), as: UTF8.self))
    }
  }

  func testScheduleAndPingResultsAreValidJSONOfTheDocumentedShape() throws {
    let center = Center(clock: ManualClock(Instant(rfc3339: "2026-01-01T08:00:00Z")!))
    let d = Dispatcher(
      center: center, configuration: ServerConfiguration(), log: Log(level: .error), metrics: Metrics())
    let client = ClientState(id: 1, peer: nil)
    let params = JSONValue.object([
      "app": .string("a"), "identifier": .string("x"), "content": .object(["categoryIdentifier": .string("Nope")]),
      "trigger": .object(["type": .string("timeInterval"), "timeInterval": .int(5)]),
    ])
    guard
      case .encoded(_, let bytes)? = d.handle(
        .request(Request(id: .number("1"), method: "scheduleLocal", params: params)), from: client)
    else { return XCTFail("scheduleLocal should answer with bytes") }
    let value = try JSONParser.parse(bytes)
    let expected = try JSONParser.parse(
      #"{"identifier":"x","scheduled":true,"replaced":false,"nextTriggerDate":"2026-01-01T08:00:05.000Z","warnings":["category 'Nope' is not registered"]}"#
    )
    XCTAssertEqual(value, expected)
    guard
      case .encoded(_, let ping)? = d.handle(
        .request(Request(id: .number("2"), method: "ping", params: nil)), from: client)
    else { return XCTFail("ping should answer with bytes") }
    XCTAssertEqual(String(decoding: ping, as: UTF8.self), #"{"now":"2026-01-01T08:00:00.000Z"}"#)
  }
}
