import Foundation
import JSONRPC
import XCTest

/// categories → schedule → pending → advance → delivered → respond, as scripts use it.
final class FlowTests: UnctlTestCase {
  let categories = """
    {"categories": [{"identifier": "msg", "actions": [{"identifier": "reply", "title": "Reply",
      "options": [], "textInput": {"buttonTitle": "Send", "placeholder": "…"}}], "options": ["customDismissAction"]}]}
    """

  func testScheduleAdvanceDeliverRespond() throws {
    let file = scratchFile("categories.json", contents: categories)
    XCTAssertEqual(try run("categories", "set", file, "--app", "chat").json()["count"]?.intValue, 1)
    let cats = try run("categories", "--app", "chat").json()
    XCTAssertEqual(cats["categories"]?[0]?["identifier"]?.stringValue, "msg")

    let s = try run(
      "schedule", "--app", "chat", "--id", "m1", "--title", "Hi", "--body", "there", "--in", "60", "--category", "msg",
      "--thread", "t1", "--badge", "2", "--sound", "default", "--user-info", #"{"k": [1]}"#)
    XCTAssertEqual(s.status, 0, s.stderr)
    let scheduled = s.json()
    XCTAssertEqual(scheduled["identifier"]?.stringValue, "m1")
    XCTAssertEqual(scheduled["nextTriggerDate"]?.stringValue, "2026-01-01T08:01:00.000Z")
    XCTAssertEqual(scheduled["warnings"]?.arrayValue, [])

    let pending = try run("pending", "--app", "chat").json()
    XCTAssertEqual(pending["requests"]?.arrayValue?.count, 1)
    let request = pending["requests"]?[0]
    XCTAssertEqual(request?["identifier"]?.stringValue, "m1")
    XCTAssertEqual(request?["content"]?["title"]?.stringValue, "Hi")
    XCTAssertEqual(request?["content"]?["categoryIdentifier"]?.stringValue, "msg")
    XCTAssertEqual(request?["content"]?["threadIdentifier"]?.stringValue, "t1")
    XCTAssertEqual(request?["content"]?["badge"]?.intValue, 2)
    XCTAssertEqual(request?["content"]?["userInfo"], .object(["k": .array([.int(1)])]))
    XCTAssertEqual(request?["trigger"]?["timeInterval"]?.intValue, 60)

    let advanced = try run("advance", "60").json()
    XCTAssertEqual(advanced["fired"]?.arrayValue, [.string("m1")])
    XCTAssertEqual(advanced["now"]?.stringValue, "2026-01-01T08:01:00.000Z")

    let delivered = try run("delivered", "--app", "chat").json()
    XCTAssertEqual(delivered["notifications"]?[0]?["identifier"]?.stringValue, "m1")
    XCTAssertEqual(delivered["notifications"]?[0]?["date"]?.stringValue, "2026-01-01T08:01:00.000Z")
    let groups = try run("delivered", "--app", "chat", "--grouped").json()
    XCTAssertEqual(groups["groups"]?[0]?["threadIdentifier"]?.stringValue, "t1")
    XCTAssertEqual(groups["groups"]?[0]?["count"]?.intValue, 1)

    let reply = try run("respond", "m1", "reply", "--text", "ok", "--app", "chat")
    XCTAssertEqual(reply.status, 0, reply.stderr)
    XCTAssertNotNil(reply.json()["responseId"]?.stringValue)

    // With alert text: a notification without any is not listed (nothing to respond to).
    try run("schedule", "--app", "chat", "--id", "m2", "--now", "--category", "msg", "--title", "Hi")
    let unknown = try run("respond", "m2", "nope", "--app", "chat")
    XCTAssertEqual(unknown.status, 1)
    XCTAssertNotNil(try parseJSON(unknown.stderr)["code"]?.intValue)
    let opened = try run("respond", "m2", "--default", "--app", "chat")
    XCTAssertEqual(opened.status, 0, opened.stderr)
    let event = try run("wait", "--event", "responded", "--id", "m2", "--timeout", "5").json()
    XCTAssertEqual(
      event["actionIdentifier"]?.stringValue, "com.apple.UNNotificationDefaultActionIdentifier", "\(event)")

    let responded = try run("wait", "--event", "responded", "--id", "m1", "--app", "chat", "--timeout", "5").json()
    XCTAssertEqual(responded["type"]?.stringValue, "responded")

    XCTAssertEqual(try run("pending", "--app", "chat").json()["requests"]?.arrayValue, [])
  }

  func testHumanTables() throws {
    let title = String(repeating: "long title ", count: 10)
    try run("schedule", "--app", "a", "--id", "p1", "--title", title, "--in", "120", "--repeat", "--thread", "th")
    try run("schedule", "--app", "a", "--id", "p2", "--title", "Soon", "--in", "61")
    let pending = try run("--human", "pending", "--app", "a")
    XCTAssertEqual(pending.status, 0)
    let lines = pending.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 3, pending.stdout)
    XCTAssertTrue(lines[0].hasPrefix("IDENTIFIER"))
    XCTAssertTrue(lines[1].hasPrefix("p2 "), lines[1])
    XCTAssertTrue(lines[1].contains("2026-01-01T08:01:01.000Z") && lines[1].contains("in 61s"), lines[1])
    XCTAssertTrue(lines[2].contains("every 120s") && lines[2].contains("…"), lines[2])
    XCTAssertFalse(lines[2].contains(title), "long titles are cut")

    try run("advance", "121")
    let grouped = try run("--human", "delivered", "--grouped", "--app", "a")
    XCTAssertTrue(grouped.stdout.hasPrefix("THREAD"), grouped.stdout)
    XCTAssertTrue(grouped.stdout.contains("th "), grouped.stdout)
    let delivered = try run("--human", "delivered", "--app", "a", "--limit", "1")
    XCTAssertTrue(delivered.stdout.contains("more: --after"), delivered.stdout)
  }

  /// A long advance lists the first 1000 firings and says how many there were.
  func testALongAdvanceListsTheFirstFiringsAndCountsTheRest() throws {
    try run("schedule", "--app", "a", "--id", "t", "--in", "60", "--repeat")
    let advanced = try run("advance", "\(1500 * 60)").json()
    XCTAssertEqual(advanced["fired"]?.arrayValue?.count, 1000)
    XCTAssertEqual(advanced["firedCount"]?.intValue, 1500)
    XCTAssertEqual(advanced["truncated"]?.boolValue, true)
    let human = try run("--human", "advance", "\(1200 * 60)")
    XCTAssertEqual(human.status, 0, human.stderr)
    XCTAssertTrue(human.stdout.contains("fired t, t, ") && human.stdout.hasSuffix(" and 200 more\n"), human.stdout)
    XCTAssertTrue(try run("--human", "advance", "60").stdout.hasSuffix("fired t\n"))
  }

  func testAppFromEnvironment() throws {
    let env = ["UNCENTER_APP": "envapp"]
    XCTAssertEqual(try run("schedule", "--id", "e1", "--in", "60", environment: env).status, 0)
    XCTAssertEqual(try run("pending", "--app", "envapp").json()["requests"]?[0]?["identifier"]?.stringValue, "e1")
    XCTAssertEqual(try run("pending", "--app", "other", environment: env).json()["requests"]?.arrayValue, [])
  }

  func testBadgeAuthStatsPingCall() throws {
    XCTAssertEqual(try run("badge", "--app", "a").json()["count"]?.intValue, 0)
    XCTAssertEqual(try run("badge", "5", "--app", "a").json()["count"]?.intValue, 5)
    XCTAssertEqual(try run("--human", "badge", "--app", "a").stdout, "5\n")

    XCTAssertEqual(try run("auth", "set", "denied", "--app", "a").json()["authorizationStatus"]?.stringValue, "denied")
    XCTAssertEqual(try run("auth", "--app", "a").json()["authorizationStatus"]?.stringValue, "denied")
    XCTAssertEqual(try run("auth", "set", "notDetermined", "--app", "b").status, 0)
    XCTAssertEqual(try run("auth", "answer", "deny", "--app", "b").status, 0)
    let request = try run("auth", "request", "alert", "badge", "--app", "b").json()
    XCTAssertEqual(request["granted"]?.boolValue, false)
    XCTAssertEqual(try run("auth", "status", "--app", "b").json()["authorizationStatus"]?.stringValue, "denied")

    XCTAssertEqual(try run("ping").json()["now"]?.stringValue, "2026-01-01T08:00:00.000Z")
    let stats = try run("stats").json()
    XCTAssertEqual(stats["clock"]?.stringValue, "manual")
    XCTAssertNotNil(stats["pending"]?.intValue)
    XCTAssertEqual(try run("--human", "stats").stdout.contains("clock: manual"), true)
    let prometheus = try run("stats", "--prometheus").stdout
    XCTAssertTrue(prometheus.contains("# TYPE uncenter_pending_requests gauge\nuncenter_pending_requests "), prometheus)
    XCTAssertTrue(prometheus.contains("uncenter_fire_lateness_seconds_bucket{le=\"+Inf\"} 0\n"), prometheus)

    let called = try run("call", "getBadgeCount", "-", stdin: #"{"app": "a"}"#)
    XCTAssertEqual(called.json()["count"]?.intValue, 5)
    XCTAssertEqual(try run("call", "ping").json()["now"]?.stringValue, "2026-01-01T08:00:00.000Z")
  }
}
