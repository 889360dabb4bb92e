import JSONRPC
import UNModel
import UNProtocol
import XCTest

@testable import UNServer

/// The byte writers of the hot results must produce exactly the expected text (written
/// down from the tree encoders they replaced, which agreed with them byte for byte).
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

  func testPendingBytesAreTheExpectedText() throws {
    let requests = try requests()
    XCTAssertEqual(requests.count, expectedPending.count)
    for (p, expected) in zip(requests, expectedPending) {
      var bytes: [UInt8] = []
      RequestShape.encode(p, &bytes)
      XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected)
    }
  }

  /// `requests()` as `listPending` writes them, in order.
  private let expectedPending = [
    #"{"identifier":"r-0-0","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":{"type":"timeInterval","timeInterval":86400,"repeats":false},"nextTriggerDate":"2026-01-01T08:00:00.000Z"}"#,
    #"{"identifier":"r-0-1","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":{"type":"timeInterval","timeInterval":90.5,"repeats":true},"nextTriggerDate":"2026-01-01T08:00:01.234Z"}"#,
    #"{"identifier":"r-0-2","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":{"type":"calendar","dateMatching":{"hour":9,"minute":30},"timeZone":"Europe/Rome","repeats":true},"nextTriggerDate":"2026-01-01T08:00:02.468Z"}"#,
    #"{"identifier":"r-0-3","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":{"type":"push"},"nextTriggerDate":"2026-01-01T08:00:03.702Z"}"#,
    #"{"identifier":"r-0-4","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":null,"nextTriggerDate":"2026-01-01T08:00:04.936Z"}"#,
    #"{"identifier":"r-1-0","content":{"title":"Standup","subtitle":"sub","body":"Daily standup in five minutes, \"room\" 4\n","badge":3,"sound":"chime.caf","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"Alice","summaryArgumentCount":2,"targetContentIdentifier":"target","interruptionLevel":"timeSensitive","relevanceScore":0.25,"launchImageName":"launch","filterCriteria":"work"},"trigger":{"type":"timeInterval","timeInterval":86400,"repeats":false},"nextTriggerDate":"2026-01-01T08:00:00.000Z"}"#,
    #"{"identifier":"r-1-1","content":{"title":"Standup","subtitle":"sub","body":"Daily standup in five minutes, \"room\" 4\n","badge":3,"sound":"chime.caf","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"Alice","summaryArgumentCount":2,"targetContentIdentifier":"target","interruptionLevel":"timeSensitive","relevanceScore":0.25,"launchImageName":"launch","filterCriteria":"work"},"trigger":{"type":"timeInterval","timeInterval":90.5,"repeats":true},"nextTriggerDate":"2026-01-01T08:00:01.234Z"}"#,
    #"{"identifier":"r-1-2","content":{"title":"Standup","subtitle":"sub","body":"Daily standup in five minutes, \"room\" 4\n","badge":3,"sound":"chime.caf","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"Alice","summaryArgumentCount":2,"targetContentIdentifier":"target","interruptionLevel":"timeSensitive","relevanceScore":0.25,"launchImageName":"launch","filterCriteria":"work"},"trigger":{"type":"calendar","dateMatching":{"hour":9,"minute":30},"timeZone":"Europe/Rome","repeats":true},"nextTriggerDate":"2026-01-01T08:00:02.468Z"}"#,
    #"{"identifier":"r-1-3","content":{"title":"Standup","subtitle":"sub","body":"Daily standup in five minutes, \"room\" 4\n","badge":3,"sound":"chime.caf","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"Alice","summaryArgumentCount":2,"targetContentIdentifier":"target","interruptionLevel":"timeSensitive","relevanceScore":0.25,"launchImageName":"launch","filterCriteria":"work"},"trigger":{"type":"push"},"nextTriggerDate":"2026-01-01T08:00:03.702Z"}"#,
    #"{"identifier":"r-1-4","content":{"title":"Standup","subtitle":"sub","body":"Daily standup in five minutes, \"room\" 4\n","badge":3,"sound":"chime.caf","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"Alice","summaryArgumentCount":2,"targetContentIdentifier":"target","interruptionLevel":"timeSensitive","relevanceScore":0.25,"launchImageName":"launch","filterCriteria":"work"},"trigger":null,"nextTriggerDate":"2026-01-01T08:00:04.936Z"}"#,
    #"{"identifier":"r-2-0","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","sound":"default","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":{"type":"timeInterval","timeInterval":86400,"repeats":false},"nextTriggerDate":"2026-01-01T08:00:00.000Z"}"#,
    #"{"identifier":"r-2-1","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","sound":"default","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":{"type":"timeInterval","timeInterval":90.5,"repeats":true},"nextTriggerDate":"2026-01-01T08:00:01.234Z"}"#,
    #"{"identifier":"r-2-2","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","sound":"default","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":{"type":"calendar","dateMatching":{"hour":9,"minute":30},"timeZone":"Europe/Rome","repeats":true},"nextTriggerDate":"2026-01-01T08:00:02.468Z"}"#,
    #"{"identifier":"r-2-3","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","sound":"default","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":{"type":"push"},"nextTriggerDate":"2026-01-01T08:00:03.702Z"}"#,
    #"{"identifier":"r-2-4","content":{"title":"Standup","subtitle":"","body":"Daily standup in five minutes, \"room\" 4\n","sound":"default","userInfo":{"seq":77,"nested":{"a":[1,2.5,"ü"]}},"categoryIdentifier":"reminder","threadIdentifier":"team","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"trigger":null,"nextTriggerDate":"2026-01-01T08:00:04.936Z"}"#,
  ]

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
