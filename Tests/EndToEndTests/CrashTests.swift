import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// `--state`: every acknowledged change survives `kill -9` at any instant, and nothing
/// unacknowledged is half-applied (proto-docs/README.md, "Durable state").
final class CrashTests: EndToEndTestCase {
  func testStateSurvivesKillAfterEachKindOfChange() throws {
    let dir = try freshDirectory()
    var d = try stateDaemon(dir)
    var user = try userConnection(d)
    try ok(
      user.call(
        "registerCategories",
        json(
          #"{"app":"a","categories":[{"identifier":"msg","actions":[{"identifier":"ok","title":"OK","options":["foreground"]}],"options":["customDismissAction"]}]}"#
        )))
    try ok(
      user.call(
        "scheduleLocal",
        json(
          #"{"app":"a","identifier":"later","content":{"title":"L","badge":3},"trigger":{"type":"timeInterval","timeInterval":60,"repeats":true}}"#
        )))
    XCTAssertTrue(d.kill9())

    d = try stateDaemon(dir)
    user = try userConnection(d)
    assertJSON(try ok(user.call("getCategories", json(#"{"app":"a"}"#)))["categories"]?[0]?["identifier"], #""msg""#)
    assertJSON(
      try ok(user.call("listPending", json(#"{"app":"a"}"#)))["requests"]?[0]?["nextTriggerDate"],
      #""2026-01-01T08:01:00.000Z""#)
    try ok(user.call("advanceClock", json(#"{"seconds":60}"#)))
    try ok(
      user.call(
        "scheduleLocal",
        json(#"{"app":"a","identifier":"now","content":{"title":"N","categoryIdentifier":"msg"},"trigger":null}"#)))
    XCTAssertTrue(d.kill9())

    d = try stateDaemon(dir)
    user = try userConnection(d)
    let delivered = try ok(user.call("listDelivered", json(#"{"app":"a"}"#)))["notifications"]?.arrayValue ?? []
    XCTAssertEqual(delivered.compactMap { $0["identifier"]?.stringValue }.sorted(), ["later", "now"])
    assertJSON(try ok(user.call("getBadgeCount", json(#"{"app":"a"}"#)))["count"], "3")
    assertJSON(try ok(user.call("ping"))["now"], #""2026-01-01T08:01:00.000Z""#)
    assertJSON(
      try ok(user.call("listPending", json(#"{"app":"a"}"#)))["requests"]?[0]?["nextTriggerDate"],
      #""2026-01-01T08:02:00.000Z""#)
    let responded = try ok(user.call("respond", json(#"{"app":"a","identifier":"now","actionIdentifier":"ok"}"#)))
    assertJSON(responded["queued"], "true")
    XCTAssertTrue(d.kill9())

    d = try stateDaemon(dir)
    let app = try d.connect()
    let hello = try ok(app.call("hello", json(#"{"appId":"a"}"#)))
    assertJSON(hello["queuedResponses"], "1")
    XCTAssertEqual(app.notifications.first?["params"]?["response"]?["actionIdentifier"]?.stringValue, "ok")
    user = try userConnection(d)
    let after = try ok(user.call("listDelivered", json(#"{"app":"a"}"#)))["notifications"]?.arrayValue ?? []
    XCTAssertEqual(after.compactMap { $0["identifier"]?.stringValue }, ["later"])
  }

  /// Pipelines a burst of scheduleLocal calls, kills the daemon while answers are still
  /// arriving, and checks every acknowledged request is back, complete, after a restart.
  func testKillMidBurstKeepsEveryAcknowledgedRequest() throws {
    for round in 0..<3 {
      let dir = try freshDirectory()
      let d = try stateDaemon(dir)
      let raw = try d.raw()
      let total = 3000
      var burst = ""
      for i in 0..<total {
        burst +=
          #"{"jsonrpc":"2.0","id":\#(i),"method":"scheduleLocal","params":{"app":"b","identifier":"r\#(i)","content":{"title":"title \#(i)","userInfo":{"i":\#(i)}},"trigger":{"type":"timeInterval","timeInterval":3600}}}"#
          + "\n"
      }
      try raw.send(burst)
      var acked = Set<String>()
      var lastID = -1
      let stopAt = total / 4 + round * total / 4
      while acked.count < stopAt, let line = raw.readLine(timeout: 10) {
        guard let v = parseLine(line), v["result"]?["scheduled"] == .bool(true), let id = v["id"]?.intValue else {
          continue
        }
        // The burst spans many commits, some handed over mid-iteration
        // (`Committer.submitIfLarge`): the answers still come in request order.
        XCTAssertEqual(id, lastID + 1, "answers in request order")
        lastID = id
        acked.insert("r\(id)")
      }
      XCTAssertTrue(d.kill9())
      XCTAssertGreaterThanOrEqual(acked.count, stopAt)

      let again = try stateDaemon(dir)
      let user = try userConnection(again)
      let pending = try ok(user.call("listPending", json(#"{"app":"b"}"#)))["requests"]?.arrayValue ?? []
      var present = Set<String>()
      for r in pending {
        let id = r["identifier"]?.stringValue ?? "?"
        present.insert(id)
        let n = Int(id.dropFirst()) ?? -1
        XCTAssertEqual(r["content"]?["title"]?.stringValue, "title \(n)", "request \(id) is complete")
        XCTAssertEqual(r["content"]?["userInfo"]?["i"]?.intValue, n)
      }
      XCTAssertTrue(
        acked.isSubset(of: present), "round \(round): lost \(acked.subtracting(present).sorted().prefix(5))")
      XCTAssertLessThanOrEqual(present.count, total)
      again.stop()
    }
  }

  /// The manual clock's time is acknowledged state: an `advanceClock` that fires nothing
  /// survives both `kill -9` and a clean stop.
  func testAnAdvanceThatFiresNothingSurvivesARestart() throws {
    let dir = try freshDirectory()
    var d = try stateDaemon(dir)
    var user = try userConnection(d)
    assertJSON(try ok(user.call("advanceClock", json(#"{"seconds":30}"#)))["fired"], "[]")
    XCTAssertTrue(d.kill9())

    d = try stateDaemon(dir)
    user = try userConnection(d)
    assertJSON(try ok(user.call("ping"))["now"], #""2026-01-01T08:00:30.000Z""#)
    assertJSON(try ok(user.call("advanceClock", json(#"{"seconds":15}"#)))["now"], #""2026-01-01T08:00:45.000Z""#)
    XCTAssertEqual(d.stop(), 0)

    d = try stateDaemon(dir)
    user = try userConnection(d)
    assertJSON(try ok(user.call("ping"))["now"], #""2026-01-01T08:00:45.000Z""#)
  }

  /// The event history is state: after a restart `waitFor {since}` still finds what
  /// happened before it, under the same numbers, and numbering goes on above them.
  func testEventHistorySurvivesARestart() throws {
    let dir = try freshDirectory()
    var d = try stateDaemon(dir)
    var user = try userConnection(d)
    for id in ["e1", "e2", "e3"] {
      try ok(
        user.call(
          "scheduleLocal",
          json(
            #"{"app":"a","identifier":"\#(id)","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":60,"repeats":false}}"#
          )))
    }
    let before = try ok(user.call("waitFor", json(#"{"event":{"type":"scheduled","identifier":"e2"},"timeout":0}"#)))[
      "event"]
    let e2 = try XCTUnwrap(before?["seq"]?.intValue)
    XCTAssertTrue(d.kill9())

    d = try stateDaemon(dir)
    user = try userConnection(d)
    let after = try ok(user.call("waitFor", json(#"{"event":{"type":"scheduled","identifier":"e2"},"timeout":0}"#)))[
      "event"]
    XCTAssertEqual(after, before, "the same event, number and all")
    let since = try ok(user.call("waitFor", json(#"{"event":{"app":"a"},"since":\#(e2),"timeout":0}"#)))["event"]
    XCTAssertEqual(since?["identifier"], .string("e3"), "since a number from before the restart")
    try ok(user.call("scheduleLocal", json(#"{"app":"a","identifier":"e4","content":{"title":"T"},"trigger":null}"#)))
    let fresh = try ok(user.call("waitFor", json(#"{"event":{"type":"delivered","identifier":"e4"},"timeout":0}"#)))[
      "event"]
    let e3 = try XCTUnwrap(since?["seq"]?.intValue)
    XCTAssertGreaterThan(try XCTUnwrap(fresh?["seq"]?.intValue), e3, "numbering goes on above the stored events")
    XCTAssertEqual(d.stop(), 0)

    d = try stateDaemon(dir)
    user = try userConnection(d)
    try ok(user.call("reset", json(#"{"app":"a"}"#)))
    XCTAssertEqual(d.stop(), 0)
    d = try stateDaemon(dir)
    user = try userConnection(d)
    let gone = try ok(user.call("waitFor", json(#"{"event":{"app":"a","type":"scheduled"},"timeout":0}"#)))
    XCTAssertEqual(gone["event"], .null, "a reset app's history stays gone after a restart")
  }

  func testCorruptStateStopsStartUpWithAClearMessage() throws {
    let dir = try freshDirectory()
    try FileManager.default.createDirectory(atPath: dir + "/state", withIntermediateDirectories: true)
    try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: dir + "/state/uncenter.db"))
    let d = try DaemonProcess(
      arguments: ["--clock", "manual=2026-01-01T08:00:00Z", "--state", dir + "/state"], directory: dir,
      waitForSocket: false)
    XCTAssertTrue(d.waitForExit(timeout: 10))
    XCTAssertNotEqual(d.exitStatus, 0)
    XCTAssertTrue(d.stderr.contains("uncenter.db"), d.stderr)
  }
}

/// On the real clock, triggers that fell due while the daemon was down fire
/// once at start-up, marked late; a repeating one moves to its next future slot
/// (proto-docs/README.md, "Durable state").
final class CatchUpEndToEndTests: EndToEndTestCase {
  func testMissedTriggersFireOnceLateAfterARestart() throws {
    let dir = try freshDirectory()
    let args = ["--clock", "real", "--state", dir + "/state"]
    var d = try DaemonProcess(arguments: args, directory: dir)
    var user = try userConnection(d)
    try ok(
      user.call(
        "scheduleLocal",
        json(
          #"{"app":"a","identifier":"once","content":{"title":"O"},"trigger":{"type":"timeInterval","timeInterval":1}}"#
        )))
    try ok(
      user.call(
        "scheduleLocal",
        json(
          #"{"app":"a","identifier":"every","content":{"title":"E"},"trigger":{"type":"timeInterval","timeInterval":60,"repeats":true}}"#
        )))
    try ok(
      user.call(
        "scheduleLocal",
        json(
          #"{"app":"a","identifier":"later","content":{"title":"L"},"trigger":{"type":"timeInterval","timeInterval":3600}}"#
        )))
    XCTAssertTrue(d.kill9())
    usleep(1_500_000)

    d = try d.restart()
    addTeardownBlock { [d] in d.stop() }
    user = try userConnection(d)
    let delivered = try ok(user.call("listDelivered", json(#"{"app":"a"}"#)))["notifications"]?.arrayValue ?? []
    XCTAssertEqual(delivered.compactMap { $0["identifier"]?.stringValue }, ["once"])
    XCTAssertEqual(delivered.first?["late"], .bool(true))
    let pending = try ok(user.call("listPending", json(#"{"app":"a"}"#)))["requests"]?.arrayValue ?? []
    XCTAssertEqual(pending.compactMap { $0["identifier"]?.stringValue }.sorted(), ["every", "later"])
    XCTAssertTrue(d.stderr.contains("event=caught_up fired=1"), d.stderr)
  }
}
