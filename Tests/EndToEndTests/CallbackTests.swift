import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// `present` and `receive` callbacks: to whom, with what, and before which response.
final class CallbackTests: EndToEndTestCase {
  let app = "com.example.chat"

  func testPresentPrecedesAdvanceClockResponseOnSameConnection() throws {
    let d = try startDaemon()
    let c = try appConnection(d, extra: #""presentation":["banner","sound"]"#)
    try schedule(c, "n", after: 5, content: #"{"title":"Hi","body":"there"}"#)
    try c.send(#"{"jsonrpc":"2.0","id":100,"method":"advanceClock","params":{"seconds":10}}"# + "\n")
    let first = try XCTUnwrap(parseLine(c.readLine(timeout: 10)))
    XCTAssertEqual(first["method"], .string("present"), text(first))
    XCTAssertNil(first["id"], "a callback is a notification")
    let notification = try XCTUnwrap(first["params"]?["notification"])
    XCTAssertEqual(notification["identifier"], .string("n"))
    XCTAssertEqual(notification["date"], .string("2026-01-01T08:00:05.000Z"))
    XCTAssertEqual(notification["request"]?["content"]?["title"], .string("Hi"))
    assertJSON(notification["actions"], "[]")
    assertJSON(first["params"]?["presentation"], #"["banner","sound"]"#)
    let second = try XCTUnwrap(parseLine(c.readLine(timeout: 10)))
    XCTAssertEqual(second["id"], .int(100))
    assertJSON(second["result"], #"{"now":"2026-01-01T08:00:10.000Z","fired":["n"]}"#)
  }

  func testPresentIsWrittenBeforeAnotherConnectionsResponse() throws {
    let d = try startDaemon()
    let a = try appConnection(d)
    let u = try userConnection(d)
    try ok(u.call("registerCategories", json(#"{"app":"\#(app)","categories":\#(MethodTests.categories)}"#)))
    try schedule(u, "m", after: 30, content: #"{"title":"T","categoryIdentifier":"message"}"#, app: app)
    assertJSON(
      try ok(u.call("advanceClock", json(#"{"seconds":30}"#))), #"{"now":"2026-01-01T08:00:30.000Z","fired":["m"]}"#)
    // The callback was written before the user's response, so it is already there.
    let present = try XCTUnwrap(parseLine(a.readLine(timeout: 0.5)), "present not written before the response")
    XCTAssertEqual(present["method"], .string("present"))
    XCTAssertEqual(present["params"]?["notification"]?["identifier"], .string("m"))
    XCTAssertEqual(
      present["params"]?["notification"]?["actions"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue },
      ["reply", "like", "open"])
    // Presented with banner/list (the default): also kept in the delivered list.
    XCTAssertEqual(try ok(u.call("listDelivered", json(#"{"app":"\#(app)"}"#)))["notifications"]?.arrayValue?.count, 1)
  }

  func testNoPresentInBackgroundOrWithoutListAndBanner() throws {
    let d = try startDaemon()
    let a = try appConnection(d, extra: #""presentation":["sound"]"#)
    let u = try userConnection(d)
    // Foreground but neither list nor banner: presented, not kept.
    try schedule(u, "quiet", after: nil, app: app)
    XCTAssertEqual(try a.nextNotification(timeout: 10)?["method"], .string("present"))
    assertJSON(try ok(u.call("listDelivered", json(#"{"app":"\#(app)"}"#))), #"{"notifications":[]}"#)
    // Background: kept, no callback.
    try ok(a.call("setForeground", json(#"{"foreground":false}"#)))
    try schedule(u, "bg", after: nil, app: app)
    XCTAssertEqual(
      try ok(u.call("listDelivered", json(#"{"app":"\#(app)"}"#)))["notifications"]?[0]?["identifier"], .string("bg"))
    XCTAssertNil(try a.nextNotification(timeout: 0.5))
  }

  func testReceiveAfterRespondFromUserConnection() throws {
    let d = try startDaemon()
    let a = try appConnection(d)
    let u = try userConnection(d)
    try ok(a.call("registerCategories", json(#"{"categories":\#(MethodTests.categories)}"#)))
    try schedule(a, "m", after: nil, content: #"{"title":"T","categoryIdentifier":"message"}"#)
    XCTAssertEqual(try a.nextNotification(timeout: 10)?["method"], .string("present"))

    let r = try ok(
      u.call("respond", json(#"{"app":"\#(app)","identifier":"m","actionIdentifier":"reply","userText":"On my way"}"#)))
    XCTAssertEqual(r["delivered"], .bool(true))
    XCTAssertEqual(r["queued"], .bool(false))
    let receive = try XCTUnwrap(parseLine(a.readLine(timeout: 0.5)), "receive not written before the response")
    XCTAssertEqual(receive["method"], .string("receive"))
    let response = try XCTUnwrap(receive["params"]?["response"])
    XCTAssertEqual(response["responseId"], r["responseId"])
    XCTAssertEqual(response["actionIdentifier"], .string("reply"))
    XCTAssertEqual(response["userText"], .string("On my way"))
    XCTAssertEqual(response["notification"]?["identifier"], .string("m"))
    XCTAssertEqual(response["notification"]?["request"]?["content"]?["categoryIdentifier"], .string("message"))
    // A background action carries its deadline (30 s of clock time).
    XCTAssertEqual(receive["params"]?["deadline"], .string("2026-01-01T08:00:30.000Z"))

    // The default action (tap): receive without userText or deadline.
    try schedule(a, "t", after: nil)
    XCTAssertEqual(try a.nextNotification(timeout: 10)?["method"], .string("present"))
    try ok(
      u.call(
        "respond",
        json(
          #"{"app":"\#(app)","identifier":"t","actionIdentifier":"com.apple.UNNotificationDefaultActionIdentifier"}"#)))
    let tap = try XCTUnwrap(a.nextNotification(timeout: 10))
    XCTAssertEqual(
      tap["params"]?["response"]?["actionIdentifier"], .string("com.apple.UNNotificationDefaultActionIdentifier"))
    XCTAssertNil(tap["params"]?["response"]?["userText"])
    XCTAssertNil(tap["params"]?["deadline"])
  }

  func testDismissWithoutCustomDismissActionIsNotReceived() throws {
    let d = try startDaemon()
    let a = try appConnection(d)
    try schedule(a, "n", after: nil)
    XCTAssertEqual(try a.nextNotification(timeout: 10)?["method"], .string("present"))
    let u = try userConnection(d)
    let r = try ok(
      u.call(
        "respond",
        json(
          #"{"app":"\#(app)","identifier":"n","actionIdentifier":"com.apple.UNNotificationDismissActionIdentifier"}"#)))
    XCTAssertEqual(r["delivered"], .bool(false))
    XCTAssertEqual(r["queued"], .bool(false))
    XCTAssertNil(try a.nextNotification(timeout: 0.5))
    assertJSON(try ok(a.call("listDelivered")), #"{"notifications":[]}"#)
  }

  func testQueuedResponsesDeliveredOldestFirstOnHello() throws {
    let d = try startDaemon()
    let u = try userConnection(d)
    try ok(u.call("registerCategories", json(#"{"app":"\#(app)","categories":\#(MethodTests.categories)}"#)))
    for id in ["n1", "n2", "n3"] {
      try schedule(u, id, after: nil, content: #"{"title":"\#(id)","categoryIdentifier":"message"}"#, app: app)
    }
    let answers =
      [
        ("n2", "com.apple.UNNotificationDefaultActionIdentifier", nil),
        ("n1", "reply", "first"),
        ("n3", "com.apple.UNNotificationDismissActionIdentifier", nil),  // customDismissAction: told
      ] as [(String, String, String?)]
    var responseIds: [JSONValue] = []
    for (id, action, userText) in answers {
      var params: [JSONMember] = [
        JSONMember("app", .string(app)), JSONMember("identifier", .string(id)),
        JSONMember("actionIdentifier", .string(action)),
      ]
      if let userText { params.append(JSONMember("userText", .string(userText))) }
      let r = try ok(u.call("respond", .object(params)))
      XCTAssertEqual(r["queued"], .bool(true), text(r))
      XCTAssertEqual(r["delivered"], .bool(false), text(r))
      responseIds.append(r["responseId"] ?? .null)
    }

    let a = try d.raw()
    try a.send(#"{"jsonrpc":"2.0","id":"h","method":"hello","params":{"appId":"\#(app)"}}"# + "\n")
    var received: [JSONValue] = []
    var hello: JSONValue?
    while hello == nil, let m = parseLine(a.readLine()) {
      if m["id"] == .string("h") { hello = m } else { received.append(m) }
    }
    XCTAssertEqual(hello?["result"]?["queuedResponses"], .int(3), text(hello))
    XCTAssertEqual(received.map { $0["method"] }, Array(repeating: .string("receive"), count: 3))
    XCTAssertEqual(received.map { $0["params"]?["response"]?["responseId"] ?? .null }, responseIds)
    XCTAssertEqual(
      received.compactMap { $0["params"]?["response"]?["notification"]?["identifier"]?.stringValue },
      ["n2", "n1", "n3"])
    XCTAssertEqual(received[1]["params"]?["response"]?["userText"], .string("first"))
    XCTAssertEqual(received[1]["params"]?["deadline"], .string("2026-01-01T08:00:30.000Z"))

    // Nothing is delivered twice.
    let second = try d.connect()
    XCTAssertEqual(try ok(second.call("hello", json(#"{"appId":"\#(app)"}"#)))["queuedResponses"], .int(0))
    XCTAssertNil(try second.nextNotification(timeout: 0.5))
  }

  func testEveryForegroundAppConnectionGetsPresent() throws {
    let d = try startDaemon()
    let a1 = try appConnection(d)
    let a2 = try appConnection(d, extra: #""surface":"watch""#)
    let other = try appConnection(d, appId: "com.example.other")
    try ok(a1.call("registerCategories", json(#"{"categories":\#(MethodTests.categories)}"#)))
    try schedule(a1, "m", after: nil, content: #"{"title":"T","categoryIdentifier":"message"}"#)
    let p1 = try XCTUnwrap(a1.nextNotification(timeout: 10))
    let p2 = try XCTUnwrap(a2.nextNotification(timeout: 10))
    XCTAssertEqual(p1["params"]?["notification"]?["actions"]?.arrayValue?.count, 3)
    // The watch surface shows no actions.
    assertJSON(p2["params"]?["notification"]?["actions"], "[]")
    XCTAssertNil(try other.nextNotification(timeout: 0.5), "another app's connection got the callback")
  }
}
