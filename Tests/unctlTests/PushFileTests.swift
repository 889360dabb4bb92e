import Foundation
import JSONRPC
import XCTest

/// `unctl push` with real-world `.apns` files (Tests/APNs, modelled on Apple's documented
/// payloads) and `unctl strings`, against a live daemon.
final class PushFileTests: UnctlTestCase {
  private func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("APNs/" + name).path
  }

  private func delivered(_ app: String) throws -> [JSONValue] {
    try run("delivered", "--app", app).json()["notifications"]?.arrayValue ?? []
  }

  func testTrailingCommasAreAcceptedAsOnMacOS() throws {
    let r = try run("push", fixture("game-request.apns"), "--id", "g1")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.json()["warnings"], .array([]))
    let n = try XCTUnwrap(try delivered("com.example.games").first)
    XCTAssertEqual(n["request"]?["content"]?["title"], .string("Game Request"))
    XCTAssertEqual(n["request"]?["content"]?["subtitle"], .string("Five Card Draw"))
    // The Simulator keeps its target key in userInfo.
    XCTAssertEqual(
      n["request"]?["content"]?["userInfo"]?["Simulator Target Bundle"], .string("com.example.games"))
  }

  func testBadFilesExitFourWithOneLineSayingWhere() throws {
    let r = try run("push", fixture("not-json.apns"), "--app", "a")
    XCTAssertEqual(r.status, 4, r.stderr)
    let lines = r.stderr.split(separator: "\n")
    XCTAssertEqual(lines.count, 1, r.stderr)
    XCTAssertTrue(r.stderr.contains("not-json.apns:4:9: not valid JSON"), r.stderr)
    XCTAssertFalse(r.stderr.contains("usage:"), r.stderr)

    let garbage = try run("push", fixture("garbage-after-value.apns"), "--app", "a")
    XCTAssertEqual(garbage.status, 4, "garbage after the value still fails: \(garbage.stderr)")
    let array = try run("push", scratchFile("arr.apns", contents: "[1, 2]"), "--app", "a")
    XCTAssertEqual(array.status, 4)
    XCTAssertTrue(array.stderr.contains("an APNs payload must be a JSON object, got an array"), array.stderr)
    let missing = try run("push", scratch + "/nope.apns", "--app", "a")
    XCTAssertEqual(missing.status, 4)
    for comma in ["[,]", #"{"aps":{},,}"#, #"{"aps":{"a":1 "b":2}}"#] {
      let bad = try run("push", scratchFile("c.apns", contents: comma), "--app", "a")
      XCTAssertEqual(bad.status, 4, comma)
    }
    XCTAssertTrue(try run("push", "--help").stdout.contains("4 bad input file"))
    XCTAssertTrue(try unctl(["--help"]).stdout.contains("4 bad input file"))
  }

  func testNoAppNamesTheOptionAndThePayloadKey() throws {
    let r = try run("push", scratchFile("x.apns", contents: #"{"aps":{"alert":"x"}}"#))
    XCTAssertEqual(r.status, 2)
    XCTAssertTrue(r.stderr.contains("--app APP"), r.stderr)
    XCTAssertTrue(r.stderr.contains("\"Simulator Target Bundle\""), r.stderr)
    XCTAssertFalse(r.stderr.contains("hello"), r.stderr)
  }

  func testLocalizedPushWithStringsFile() throws {
    let blank = try run("push", fixture("localized-game-request.apns"), "--id", "before")
    XCTAssertEqual(blank.status, 0, blank.stderr)
    let set = try run("strings", "set", fixture("Localizable.strings"), "--app", "com.example.games")
    XCTAssertEqual(set.status, 0, set.stderr)
    XCTAssertEqual(set.json()["count"], .int(3))
    let strings = try run("strings", "--app", "com.example.games").json()["strings"]
    XCTAssertEqual(strings?["QUOTED"], .string("She said \"hi\"\n100%%"))
    XCTAssertEqual(try run("push", fixture("localized-game-request.apns"), "--id", "after").status, 0)
    let byId = Dictionary(
      uniqueKeysWithValues: try delivered("com.example.games").map { ($0["identifier"]?.stringValue ?? "", $0) })
    XCTAssertEqual(byId["before"]?["request"]?["content"]?["body"], .string("GAME_PLAY_REQUEST_FORMAT"))
    XCTAssertEqual(
      byId["after"]?["request"]?["content"]?["body"], .string("Jenna and Frank have invited you to play Monopoly"))
    XCTAssertEqual(byId["after"]?["request"]?["content"]?["title"], .string("Game Request"))
  }

  func testStringCatalogPicksTheLanguage() throws {
    let r = try run("strings", "set", fixture("Localizable.xcstrings"), "--language", "pl", "--app", "g")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(
      try run("strings", "--app", "g").json()["strings"],
      try parseJSON(
        #"{"GAME_PLAY_REQUEST_FORMAT":"%1$@ i %2$@ zapraszają cię do gry w Monopoly","GAME_PLAY_REQUEST_TITLE":"Zaproszenie do gry"}"#
      ))
    XCTAssertEqual(try run("strings", "set", fixture("Localizable.xcstrings"), "--app", "g").json()["count"], .int(1))
    let bad = try run("strings", "set", fixture("not-json.apns"), "--app", "g")
    XCTAssertEqual(bad.status, 4, bad.stderr)
  }

  func testBadgeAndSoundPushSetsTheBadgeAndListsNothing() throws {
    let r = try run("push", fixture("badge-and-sound.apns"))
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try delivered("com.example.games"), [])
    XCTAssertEqual(try run("badge", "--app", "com.example.games").json()["count"], .int(9))
  }

  func testIllTypedKeysAndLiveActivitiesAreWarnings() throws {
    let r = try run("push", fixture("ill-typed-keys.apns"))
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(
      r.json()["warnings"],
      .array([
        .string(#"aps.badge: expected an integer >= 0, got "3"; ignored"#),
        .string("aps.relevance-score: expected a number between 0 and 1, got 100; ignored"),
      ]))
    XCTAssertEqual(try delivered("com.example.chat").count, 1)
    let human = try run("--human", "push", fixture("live-activity-update.apns"))
    XCTAssertEqual(human.status, 0, human.stderr)
    XCTAssertTrue(human.stdout.contains("not delivered"), human.stdout)
    XCTAssertTrue(human.stdout.contains("Live Activity"), human.stdout)
    XCTAssertEqual(try delivered("com.example.adventure"), [])
  }

  func testCriticalSoundIsKeptWholeAndPlaysNormallyWithoutPermission() throws {
    XCTAssertEqual(try run("push", fixture("critical-alarm.apns"), "--id", "leak").status, 0)
    let content = try XCTUnwrap(try delivered("com.example.alarm").first?["request"]?["content"])
    XCTAssertEqual(content["sound"], .string("alarm.aiff"), "not authorized for critical alerts")
    XCTAssertEqual(content["interruptionLevel"], .string("active"))
    let allowed = try run(
      "call", "requestAuthorization",
      #"{"app":"com.example.critical","options":["alert","sound","badge","criticalAlert"]}"#)
    XCTAssertEqual(allowed.status, 0, allowed.stderr)
    XCTAssertEqual(try run("push", fixture("critical-alarm.apns"), "--app", "com.example.critical").status, 0)
    let loud = try XCTUnwrap(try delivered("com.example.critical").first?["request"]?["content"])
    XCTAssertEqual(loud["sound"], try parseJSON(#"{"name":"alarm.aiff","critical":true,"volume":0.8}"#))
    XCTAssertEqual(loud["interruptionLevel"], .string("critical"))
  }
}
