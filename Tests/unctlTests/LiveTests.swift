import Foundation
import JSONRPC
import XCTest

/// wait, watch, colors and push: the commands that follow the daemon over time.
final class LiveTests: UnctlTestCase {
  func testWaitReturnsAnEventAlreadyRecorded() throws {
    try run("schedule", "--app", "a", "--id", "now1", "--title", "T", "--now")
    let r = try run("wait", "--event", "delivered", "--id", "now1", "--app", "a", "--timeout", "5")
    XCTAssertEqual(r.status, 0, r.stderr)
    let event = r.json()
    XCTAssertEqual(event["type"]?.stringValue, "delivered")
    XCTAssertEqual(event["identifier"]?.stringValue, "now1")
    XCTAssertEqual(event["app"]?.stringValue, "a")
    XCTAssertNotNil(event["seq"]?.intValue)
  }

  func testWaitReturnsAnEventArrivingDuringTheWait() throws {
    try run("schedule", "--app", "a", "--id", "later", "--in", "60")
    // The event happens after the wait started or before it asked: either way it is found.
    let waiting = try start(["--socket", socket, "wait", "--event", "fired", "--id", "later", "--timeout", "30"])
    XCTAssertEqual(try run("advance", "60").status, 0)
    let r = waiting.finish()
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.json()["identifier"]?.stringValue, "later")
    XCTAssertEqual(r.json()["date"]?.stringValue, "2026-01-01T08:01:00.000Z")
  }

  func testWaitTimesOutWithExitOne() throws {
    let r = try run("wait", "--event", "fired", "--id", "never", "--timeout", "0.5")
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.contains("unctl: no fired event within 0.5 s"), r.stderr)
    XCTAssertEqual(r.stdout, "")
  }

  func testWaitFieldsAndSince() throws {
    try run("schedule", "--app", "a", "--id", "f1", "--now")
    let first = try run("wait", "--event", "delivered", "--field", "identifier=f1", "--timeout", "5")
    XCTAssertEqual(first.status, 0, first.stderr)
    let seq = try XCTUnwrap(first.json()["seq"]?.intValue)
    let after = try run("wait", "--event", "delivered", "--id", "f1", "--since", String(seq), "--timeout", "0.5")
    XCTAssertEqual(after.status, 1, "nothing after the event itself")
    let human = try run("--human", "wait", "--event", "delivered", "--id", "f1", "--timeout", "5")
    XCTAssertTrue(human.stdout.contains("delivered a f1"), human.stdout)
  }

  func testWatchPrintsEventsUntilInterrupted() throws {
    let watch = try start(["--socket", socket, "--json", "watch", "--app", "a"])
    // Keep making events until one shows up: the watch may subscribe after the first.
    var n = 0
    let deadline = Date().addingTimeInterval(20)
    while !watch.currentStdout.contains("\n"), Date() < deadline, watch.process.isRunning {
      n += 1
      try run("schedule", "--app", "a", "--id", "w\(n)", "--now")
      try run("schedule", "--app", "other", "--id", "x\(n)", "--now")
      usleep(50_000)
    }
    watch.process.interrupt()
    let r = watch.finish()
    XCTAssertEqual(r.status, 0, r.stderr)
    let lines = r.stdout.split(separator: "\n")
    XCTAssertFalse(lines.isEmpty)
    for line in lines {
      let event = try parseJSON(String(line))
      XCTAssertEqual(event["app"]?.stringValue, "a", "only the watched app")
      XCTAssertNotNil(event["type"]?.stringValue)
      XCTAssertTrue(event["identifier"]?.stringValue?.hasPrefix("w") == true, String(line))
    }
  }

  func testWatchForPeople() throws {
    let watch = try start(["--socket", socket, "--human", "watch"])
    let deadline = Date().addingTimeInterval(20)
    var n = 0
    while !watch.currentStdout.contains("\n"), Date() < deadline, watch.process.isRunning {
      n += 1
      try run("schedule", "--app", "a", "--id", "h\(n)", "--now")
      usleep(50_000)
    }
    watch.process.interrupt()
    let r = watch.finish()
    XCTAssertEqual(r.status, 0, r.stderr)
    let first = try XCTUnwrap(r.stdout.split(separator: "\n").first)
    XCTAssertTrue(first.hasPrefix("2026-01-01T08:00:00.000Z "), String(first))
    XCTAssertTrue(first.contains(" a h"), String(first))
  }

  func testNoEscapeBytesWithoutATerminalOrWithNoColor() throws {
    let file = scratchFile("c.json", contents: #"[{"identifier": "c", "actions": [], "options": []}]"#)
    try run("categories", "set", file, "--app", "a")
    try run("schedule", "--app", "a", "--id", "n1", "--title", "x", "--in", "60")
    for env in [[:], ["NO_COLOR": "1"]] {
      for mode in ["--human", "--json"] {
        let runs = [
          try run(mode, "pending", "--app", "a", environment: env),
          try run(mode, "categories", "--app", "a", environment: env),
          try run(mode, "stats", environment: env),
          try run(mode, "schedule", "--app", "a", "--id", "r", "--in", "5", "--repeat", environment: env),
          try run(mode, "wait", "--event", "fired", "--timeout", "0.1", environment: env),
          try run(mode, "bogus", environment: env),
        ]
        for r in runs {
          XCTAssertFalse(r.stdout.contains("\u{1B}"), "\(mode) \(env): \(r.stdout)")
          XCTAssertFalse(r.stderr.contains("\u{1B}"), "\(mode) \(env): \(r.stderr)")
        }
      }
    }
  }

  func testJSONIsTheDefaultWithoutATerminal() throws {
    let r = try run("schedule", "--app", "a", "--id", "j", "--in", "60")
    XCTAssertEqual(r.stdout.filter { $0 == "\n" }.count, 1, "one line")
    XCTAssertEqual(r.json()["identifier"]?.stringValue, "j")
  }

  func testPushSendsPushRemoteWithTheSimulatorTargetBundleAsApp() throws {
    let file = scratchFile(
      "hello.apns",
      contents: #"{"Simulator Target Bundle": "com.example.chat", "aps": {"alert": {"title": "Hi", "body": "there"}}}"#)
    let r = try run("push", file, "--id", "p1")
    if r.status == 1 {
      // The daemon does not implement pushRemote yet: the method it was asked for.
      XCTAssertTrue(r.stderr.contains("pushRemote"), r.stderr)
    } else {
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(r.json()["identifier"]?.stringValue, "p1")
    }
  }

  func testPushRequestShape() throws {
    let fake = try FakeDaemon(path: scratch + "/fake.sock")
    let file = scratchFile(
      "hello.apns", contents: #"{"aps": {"alert": "Hi"}, "Simulator Target Bundle": "com.example.chat", "x": 1}"#)
    let r = try unctl(["--socket", fake.path, "push", file, "--id", "p1"])
    XCTAssertEqual(r.status, 1)
    let request = try XCTUnwrap(fake.request())
    XCTAssertEqual(request["method"]?.stringValue, "pushRemote")
    XCTAssertEqual(request["params"]?["app"]?.stringValue, "com.example.chat")
    XCTAssertEqual(request["params"]?["identifier"]?.stringValue, "p1")
    // The Simulator keeps "Simulator Target Bundle" in the payload (and so in userInfo).
    XCTAssertEqual(
      request["params"]?["payload"],
      .object([
        "aps": .object(["alert": .string("Hi")]), "Simulator Target Bundle": .string("com.example.chat"), "x": .int(1),
      ]))

    let fake2 = try FakeDaemon(path: scratch + "/fake2.sock")
    _ = try unctl(["--socket", fake2.path, "push", file, "--app", "mine"])
    let request2 = try XCTUnwrap(fake2.request())
    XCTAssertEqual(request2["params"]?["app"]?.stringValue, "mine")
    XCTAssertNil(request2["params"]?["identifier"])
    XCTAssertEqual(request2["params"]?["payload"]?["Simulator Target Bundle"], .string("com.example.chat"))
  }
}
