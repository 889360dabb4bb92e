import JSONRPC
import TestSupport
import UNModel
import XCTest

@testable import UNServer

private func map(_ text: String) throws -> RemotePush { try RemotePayload.map(json(text)) }

/// The error `RemotePayload.map` throws for this payload, or nil when it maps.
private func mappingError(_ value: JSONValue) -> RPCError? {
  do {
    _ = try RemotePayload.map(value)
    return nil
  } catch {
    return error
  }
}

private func text(_ t: JSONText) -> String { String(decoding: t.bytes, as: UTF8.self) }

final class RemotePayloadTests: XCTestCase {
  private func assertInvalid(
    _ value: JSONValue, _ reason: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let error = mappingError(value) else { return XCTFail("mapped", file: file, line: line) }
    XCTAssertEqual(error.code, .invalidPayload, file: file, line: line)
    XCTAssertEqual(error.code.rawValue, -32009, file: file, line: line)
    XCTAssertEqual(error.data?["reason"], .string("invalidPayload"), file: file, line: line)
    XCTAssertEqual(error.message, "invalid payload: " + reason, file: file, line: line)
  }

  func testPolishSeedPayload() throws {
    let source = """
      {"aps": {"alert": {"title": "Nowa wiadomość", "body": "Anna: Cześć! Jak się masz?"},
               "category": "message", "thread-id": "chat_123", "badge": 5, "sound": "default"}}
      """
    let push = try map(source)
    XCTAssertEqual(push.content.title, "Nowa wiadomość")
    XCTAssertEqual(push.content.body, "Anna: Cześć! Jak się masz?")
    XCTAssertEqual(push.content.subtitle, "")
    XCTAssertEqual(push.content.categoryIdentifier, "message")
    XCTAssertEqual(push.content.threadIdentifier, "chat_123")
    XCTAssertEqual(push.content.badge, 5)
    XCTAssertEqual(push.content.sound, .default)
    XCTAssertEqual(push.content.interruptionLevel, .active)
    XCTAssertFalse(push.silent)
    XCTAssertFalse(push.mutableContent)
    let compact = json(source).encoded()
    XCTAssertEqual(push.content.userInfo.bytes, compact, "userInfo is the whole payload")
    XCTAssertEqual(push.payload.bytes, compact)
    XCTAssertEqual(try JSONParser.parse(push.content.userInfo.bytes), json(source))
  }

  func testAlertStringIsTheBody() throws {
    let push = try map(#"{"aps":{"alert":"Cześć"}}"#)
    XCTAssertEqual(push.content.body, "Cześć")
    XCTAssertEqual(push.content.title, "")
    XCTAssertNil(push.content.badge)
    XCTAssertNil(push.content.sound)
  }

  func testAlertDictionaryKeysAndLocKeys() throws {
    let source = """
      {"aps":{"alert":{"title":"T","subtitle":"S","body":"B","launch-image":"Splash",
      "title-loc-key":"GREETING","loc-args":["Anna"],"summary-arg":"Anna","summary-arg-count":2}}}
      """
    let push = try map(source)
    XCTAssertEqual(push.content.title, "T")
    XCTAssertEqual(push.content.subtitle, "S")
    XCTAssertEqual(push.content.body, "B")
    XCTAssertEqual(push.content.launchImageName, "Splash")
    XCTAssertEqual(push.content.summaryArgument, "Anna")
    XCTAssertEqual(push.content.summaryArgumentCount, 2)
    let info = try JSONParser.parse(push.content.userInfo.bytes)
    XCTAssertEqual(info["aps"]?["alert"]?["title-loc-key"], .string("GREETING"))
    XCTAssertEqual(info["aps"]?["alert"]?["loc-args"], .array([.string("Anna")]))
    // The keys are kept for the center, which resolves them with the app's strings.
    XCTAssertEqual(push.localization?.title?.key, "GREETING")
    XCTAssertEqual(push.localization?.title?.args, [])
    XCTAssertNil(push.localization?.body)
    XCTAssertEqual(push.warnings, ["aps.alert.loc-args: no loc-key to format them with; ignored"])
  }

  func testLocKeyFamily() throws {
    let push = try map(
      #"{"aps":{"alert":{"loc-key":"MSG","loc-args":["x",2],"title-loc-key":"T","subtitle-loc-key":"S","subtitle-loc-args":["y"]}}}"#
    )
    XCTAssertEqual(push.content.title, "")
    XCTAssertEqual(push.content.body, "")
    XCTAssertEqual(push.localization?.body?.key, "MSG")
    XCTAssertEqual(push.localization?.body?.args, ["x", "2"])
    XCTAssertEqual(push.localization?.title?.key, "T")
    XCTAssertEqual(push.localization?.subtitle?.args, ["y"])
    XCTAssertFalse(push.silent)
    XCTAssertEqual(push.warnings, [])
  }

  func testCriticalSoundDictionaryKeepsNameCriticalAndVolume() throws {
    let push = try map(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"alarm.caf","volume":0.8}}}"#)
    XCTAssertEqual(push.content.sound, Sound(name: "alarm.caf", critical: true, volume: 0.8))
    XCTAssertEqual(push.content.interruptionLevel, .critical)
    let defaultName = try map(#"{"aps":{"sound":{"critical":0}}}"#)
    XCTAssertEqual(defaultName.content.sound, .default)
    XCTAssertEqual(defaultName.content.interruptionLevel, .active)
    XCTAssertEqual(try map(#"{"aps":{"sound":"ping.aiff"}}"#).content.sound, .named("ping.aiff"))
    let loud = try map(#"{"aps":{"sound":{"critical":1,"name":"default","volume":1.5}}}"#)
    XCTAssertEqual(loud.content.sound, Sound(name: nil, critical: true, volume: nil))
    XCTAssertEqual(loud.warnings, ["aps.sound.volume: expected a number between 0 and 1, got 1.5; ignored"])
  }

  func testInterruptionLevels() throws {
    XCTAssertEqual(
      try map(#"{"aps":{"interruption-level":"time-sensitive"}}"#).content.interruptionLevel, .timeSensitive)
    XCTAssertEqual(try map(#"{"aps":{"interruption-level":"passive"}}"#).content.interruptionLevel, .passive)
    XCTAssertEqual(try map(#"{"aps":{"interruption-level":"critical"}}"#).content.interruptionLevel, .critical)
    XCTAssertEqual(try map(#"{"aps":{"interruption-level":"active"}}"#).content.interruptionLevel, .active)
    let camel = try map(#"{"aps":{"alert":"x","interruption-level":"timeSensitive"}}"#)
    XCTAssertEqual(camel.content.interruptionLevel, .active)
    XCTAssertEqual(
      camel.warnings,
      [#"aps.interruption-level: expected passive, active, time-sensitive or critical, got "timeSensitive"; ignored"#])
    XCTAssertEqual(
      try map(#"{"aps":{"interruption-level":1}}"#).warnings,
      ["aps.interruption-level: expected a string, got 1; ignored"])
  }

  func testRelevanceScoreAndOtherKeys() throws {
    let push = try map(
      #"{"aps":{"alert":"x","relevance-score":0.75,"target-content-id":"room-1","filter-criteria":"work"}}"#)
    XCTAssertEqual(push.content.relevanceScore, 0.75)
    XCTAssertEqual(push.content.targetContentIdentifier, "room-1")
    XCTAssertEqual(push.content.filterCriteria, "work")
    XCTAssertEqual(push.warnings, [])
    let high = try map(#"{"aps":{"alert":"x","relevance-score":100}}"#)
    XCTAssertEqual(high.content.relevanceScore, 0)
    XCTAssertEqual(high.warnings, ["aps.relevance-score: expected a number between 0 and 1, got 100; ignored"])
    XCTAssertEqual(
      try map(#"{"aps":{"relevance-score":"high"}}"#).warnings,
      [#"aps.relevance-score: expected a number between 0 and 1, got "high"; ignored"#])
  }

  /// APNs and iOS accept ill-typed keys and ignore them: each is named in a warning.
  func testIllTypedKeysAreIgnoredWithWarnings() throws {
    let push = try map(
      #"{"aps":{"alert":{"title":{"loc-key":"%@ is on an adventure!","loc-args":["Power Panda"]},"body":"B"},"badge":"5","sound":true,"thread-id":7}}"#
    )
    XCTAssertEqual(push.content.title, "")
    XCTAssertEqual(push.content.body, "B")
    XCTAssertNil(push.content.badge)
    XCTAssertNil(push.content.sound)
    XCTAssertEqual(push.content.threadIdentifier, "")
    XCTAssertEqual(
      push.warnings,
      [
        "aps.alert.title: expected a string, got an object; ignored",
        #"aps.badge: expected an integer >= 0, got "5"; ignored"#,
        "aps.sound: expected a string or a dictionary, got true; ignored",
        "aps.thread-id: expected a string, got 7; ignored",
      ])
    XCTAssertEqual(try map(#"{"aps":{"badge":-1}}"#).warnings, ["aps.badge: expected an integer >= 0, got -1; ignored"])
    XCTAssertEqual(
      try map(#"{"aps":{"alert":5}}"#).warnings, ["aps.alert: expected a string or a dictionary, got 5; ignored"])
  }

  /// Apple's Live Activity update: accepted, not shown as a notification.
  func testLiveActivityPayload() throws {
    let push = try map(
      """
      {"aps":{"timestamp":1685952000,"event":"update","content-state":{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"},
      "alert":{"title":{"loc-key":"%@ has found a sword!","loc-args":["Power Panda"]},"body":{"loc-key":"%@ found a sword in a cave.","loc-args":["Power Panda"]},"sound":"chime.aiff"},
      "relevance-score":100}}
      """)
    XCTAssertEqual(push.liveActivityEvent, "update")
    XCTAssertFalse(push.silent)
    XCTAssertFalse(push.contentAvailable)
    XCTAssertEqual(
      push.warnings, ["aps.event: a Live Activity update is shown by ActivityKit, not as a notification; not shown"])
  }

  func testSilentAndMutable() throws {
    let silent = try map(#"{"aps":{"content-available":1},"sync":true}"#)
    XCTAssertTrue(silent.silent)
    XCTAssertEqual(text(silent.payload), #"{"aps":{"content-available":1},"sync":true}"#)
    let both = try map(#"{"aps":{"content-available":1,"alert":"x"}}"#)
    XCTAssertFalse(both.silent)
    XCTAssertTrue(both.contentAvailable, "content-available with an alert still wakes the app")
    XCTAssertTrue(silent.contentAvailable)
    XCTAssertFalse(try map(#"{"aps":{"content-available":1,"badge":1}}"#).silent)
    XCTAssertFalse(try map(#"{"aps":{"content-available":1,"sound":"default"}}"#).silent)
    XCTAssertFalse(try map(#"{"aps":{"content-available":0}}"#).silent)
    XCTAssertFalse(try map(#"{"aps":{}}"#).silent)
    XCTAssertTrue(try map(#"{"aps":{"alert":"x","mutable-content":1}}"#).mutableContent)
    XCTAssertFalse(try map(#"{"aps":{"alert":"x","mutable-content":0}}"#).mutableContent)
    XCTAssertFalse(try map(#"{"aps":{"alert":"x"}}"#).mutableContent)
  }

  func testShapeErrors() {
    assertInvalid(json("[1]"), "the payload must be a JSON object, got an array")
    assertInvalid(json(#""aps""#), "the payload must be a JSON object, got a string")
    assertInvalid(json(#"{"alert":"x"}"#), "the payload has no 'aps' dictionary")
    assertInvalid(json(#"{"aps":"x"}"#), "'aps' must be an object, got a string")
    assertInvalid(json(#"{"aps":[]}"#), "'aps' must be an object, got an array")
  }

  func testSizeLimitIsOnTheCompactSerialization() throws {
    // {"aps":{},"pad":"…"} is 19 bytes plus the padding.
    func payload(_ total: Int) -> JSONValue {
      .object([JSONMember("aps", .object([])), JSONMember("pad", .string(String(repeating: "x", count: total - 19)))])
    }
    XCTAssertEqual(payload(4096).encoded().count, 4096)
    XCTAssertNoThrow(try RemotePayload.map(payload(4096)))
    assertInvalid(payload(4097), "the payload is 4097 bytes; the limit is 4096")
    // Whitespace in the source does not count.
    let spaced = "{ \"aps\" : { } , \"pad\" : \"" + String(repeating: "y", count: 4077) + "\" }"
    XCTAssertGreaterThan(spaced.utf8.count, 4096)
    XCTAssertNoThrow(try map(spaced))
  }
}
