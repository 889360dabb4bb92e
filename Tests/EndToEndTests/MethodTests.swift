import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// Every method of the table over the wire, with its result shape.
final class MethodTests: EndToEndTestCase {
  static let categories = #"""
    [{"identifier":"message","actions":[
        {"identifier":"reply","title":"Reply","options":[],"textInput":{"buttonTitle":"Send","placeholder":"Message"}},
        {"identifier":"like","title":"Like","options":["authenticationRequired"]},
        {"identifier":"open","title":"Open","options":["foreground"]}],
      "intentIdentifiers":["INSendMessageIntent"],"options":["customDismissAction"]},
     {"identifier":"invite","actions":[],"intentIdentifiers":[],"categorySummaryFormat":"%u more invitations",
      "options":[]}]
    """#

  func testHelloAndPing() throws {
    let d = try startDaemon()
    let c = try d.connect()
    let hello = try ok(c.call("hello", json(#"{"appId":"com.example.chat","role":"app"}"#)))
    XCTAssertEqual(hello["server"]?.stringValue, "uncenterd")
    XCTAssertFalse(hello["version"]?.stringValue?.isEmpty ?? true)
    XCTAssertEqual(hello["protocol"]?.intValue, 1)
    assertJSON(hello["clock"], #"{"mode":"manual","now":"2026-01-01T08:00:00.000Z"}"#)
    XCTAssertEqual(hello["queuedResponses"], .int(0))
    assertJSON(try ok(c.call("ping")), #"{"now":"2026-01-01T08:00:00.000Z"}"#)
  }

  func testRegisterAndGetCategories() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    assertJSON(try ok(c.call("getCategories")), #"{"categories":[]}"#)
    assertJSON(try ok(c.call("registerCategories", json(#"{"categories":\#(Self.categories)}"#))), #"{"count":2}"#)
    let got = try ok(c.call("getCategories"))
    assertJSON(
      got,
      #"""
      {"categories":[{"identifier":"message","actions":[
        {"identifier":"reply","title":"Reply","options":[],"textInput":{"buttonTitle":"Send","placeholder":"Message"}},
        {"identifier":"like","title":"Like","options":["authenticationRequired"]},
        {"identifier":"open","title":"Open","options":["foreground"]}],
        "intentIdentifiers":["INSendMessageIntent"],"options":["customDismissAction"]},
       {"identifier":"invite","actions":[],"intentIdentifiers":[],"categorySummaryFormat":"%u more invitations",
        "options":[]}]}
      """#)
    // Registering replaces the whole set (rule 1).
    assertJSON(try ok(c.call("registerCategories", json(#"{"categories":[]}"#))), #"{"count":0}"#)
    assertJSON(try ok(c.call("getCategories")), #"{"categories":[]}"#)
  }

  func testScheduleLocalListAndRemovePending() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    assertJSON(
      try schedule(c, "b", after: 60),
      #"{"identifier":"b","scheduled":true,"replaced":false,"nextTriggerDate":"2026-01-01T08:01:00.000Z","warnings":[]}"#
    )
    try schedule(c, "a", after: 60)
    try schedule(c, "c", after: 30)
    assertJSON(
      try schedule(c, "b", after: 120),
      #"{"identifier":"b","scheduled":true,"replaced":true,"nextTriggerDate":"2026-01-01T08:02:00.000Z","warnings":[]}"#
    )
    let all = try ok(c.call("listPending"))
    XCTAssertEqual(all["requests"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }, ["c", "a", "b"])
    XCTAssertNil(all["next"])
    assertJSON(
      all["requests"]?[0],
      #"""
      {"identifier":"c","content":{"title":"T","subtitle":"","body":"B","userInfo":{},"categoryIdentifier":"",
       "threadIdentifier":"","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active",
       "relevanceScore":0,"launchImageName":""},
       "trigger":{"type":"timeInterval","timeInterval":30,"repeats":false},
       "nextTriggerDate":"2026-01-01T08:00:30.000Z"}
      """#)
    // Pagination with an opaque cursor.
    let page1 = try ok(c.call("listPending", json(#"{"limit":2}"#)))
    XCTAssertEqual(page1["requests"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }, ["c", "a"])
    let cursor = try XCTUnwrap(page1["next"]?.stringValue)
    let page2 = try ok(c.call("listPending", .object(["limit": .int(2), "after": .string(cursor)])))
    XCTAssertEqual(page2["requests"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }, ["b"])
    XCTAssertNil(page2["next"])

    assertJSON(try ok(c.call("removePending", json(#"{"identifiers":["a","nope"]}"#))), #"{"removed":1}"#)
    assertJSON(try ok(c.call("removePending")), #"{"removed":2}"#)
    assertJSON(try ok(c.call("listPending")), #"{"requests":[]}"#)
  }

  func testUnknownCategoryWarningWithSuggestion() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    try ok(c.call("registerCategories", json(#"{"categories":\#(Self.categories)}"#)))
    let r = try schedule(c, "m", content: #"{"title":"T","categoryIdentifier":"Message"}"#)
    XCTAssertEqual(r["scheduled"], .bool(true))
    assertJSON(r["warnings"], #"["category 'Message' is not registered; did you mean 'message'?"]"#)
  }

  func testAdvanceClockFiresRepeatingTriggerEveryInterval() throws {
    let d = try startDaemon()
    let u = try d.connect()
    try schedule(u, "tick", after: 60, repeats: true, app: "com.example.chat")
    try schedule(u, "once", after: 90, app: "com.example.chat")
    assertJSON(
      try ok(u.call("advanceClock", json(#"{"seconds":300}"#))),
      #"{"now":"2026-01-01T08:05:00.000Z","fired":["tick","once","tick","tick","tick","tick"]}"#)
    let pending = try ok(u.call("listPending", json(#"{"app":"com.example.chat"}"#)))
    XCTAssertEqual(pending["requests"]?.arrayValue?.count, 1)
    XCTAssertEqual(pending["requests"]?[0]?["nextTriggerDate"], .string("2026-01-01T08:06:00.000Z"))
    assertJSON(try ok(u.call("ping")), #"{"now":"2026-01-01T08:05:00.000Z"}"#)
  }

  func testListDeliveredFlatAndGroupedAndRemoveDelivered() throws {
    let d = try startDaemon()
    let u = try d.connect()
    let app = "com.example.chat"
    try ok(u.call("registerCategories", json(#"{"app":"\#(app)","categories":\#(Self.categories)}"#)))
    // Background app (no app connection): delivered to the list without callbacks.
    try schedule(
      u, "m1", after: 10, content: #"{"title":"1","threadIdentifier":"alice","summaryArgument":"Alice"}"#, app: app)
    try schedule(
      u, "m2", after: 20, content: #"{"title":"2","threadIdentifier":"alice","summaryArgument":"me"}"#, app: app)
    try schedule(
      u, "m3", after: 30, content: #"{"title":"3","threadIdentifier":"alice","summaryArgument":"Alice"}"#, app: app)
    try schedule(u, "i1", after: 40, content: #"{"title":"4","categoryIdentifier":"invite"}"#, app: app)
    try schedule(u, "i2", after: 50, content: #"{"title":"5","categoryIdentifier":"invite"}"#, app: app)
    try ok(u.call("advanceClock", json(#"{"seconds":60}"#)))

    let flat = try ok(u.call("listDelivered", json(#"{"app":"\#(app)"}"#)))
    XCTAssertEqual(
      flat["notifications"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }, ["i2", "i1", "m3", "m2", "m1"])
    let top = try XCTUnwrap(flat["notifications"]?[0])
    XCTAssertEqual(top["date"], .string("2026-01-01T08:00:50.000Z"))
    XCTAssertEqual(top["request"]?["identifier"], .string("i2"))
    XCTAssertEqual(top["request"]?["content"]?["categoryIdentifier"], .string("invite"))
    assertJSON(top["actions"], "[]")
    let paged = try ok(u.call("listDelivered", json(#"{"app":"\#(app)","limit":2}"#)))
    XCTAssertEqual(paged["notifications"]?.arrayValue?.count, 2)
    let cursor = try XCTUnwrap(paged["next"]?.stringValue)
    let rest = try ok(u.call("listDelivered", .object(["app": .string(app), "after": .string(cursor)])))
    XCTAssertEqual(rest["notifications"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }, ["m3", "m2", "m1"])

    let grouped = try ok(u.call("listDelivered", json(#"{"app":"\#(app)","grouped":true}"#)))
    let groups = try XCTUnwrap(grouped["groups"]?.arrayValue)
    XCTAssertEqual(groups.count, 2)
    XCTAssertEqual(groups[0]["threadIdentifier"], .string(""))
    XCTAssertEqual(groups[0]["count"], .int(2))
    XCTAssertEqual(groups[0]["summary"], .string("1 more invitations"))
    XCTAssertEqual(groups[1]["threadIdentifier"], .string("alice"))
    XCTAssertEqual(groups[1]["count"], .int(3))
    XCTAssertEqual(groups[1]["summary"], .string("2 more notifications from Alice and me"))
    XCTAssertEqual(
      groups[1]["notifications"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }, ["m3", "m2", "m1"])

    assertJSON(
      try ok(u.call("removeDelivered", json(#"{"app":"\#(app)","identifiers":["m1","zz"]}"#))), #"{"removed":1}"#)
    assertJSON(try ok(u.call("removeDelivered", json(#"{"app":"\#(app)"}"#))), #"{"removed":4}"#)
    assertJSON(try ok(u.call("listDelivered", json(#"{"app":"\#(app)"}"#))), #"{"notifications":[]}"#)
  }

  func testRespondAndCompleteResponse() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    try ok(c.call("registerCategories", json(#"{"categories":\#(Self.categories)}"#)))
    try ok(c.call("setForeground", json(#"{"foreground":false}"#)))
    try schedule(c, "n", after: nil, content: #"{"title":"T","categoryIdentifier":"message"}"#)
    let u = try userConnection(d)
    let r = try ok(u.call("respond", json(#"{"app":"com.example.chat","identifier":"n","actionIdentifier":"like"}"#)))
    let responseId = try XCTUnwrap(r["responseId"]?.stringValue)
    XCTAssertFalse(responseId.isEmpty)
    XCTAssertEqual(r["delivered"], .bool(true))
    XCTAssertEqual(r["queued"], .bool(false))
    let receive = try XCTUnwrap(c.nextNotification(timeout: 10))
    XCTAssertEqual(receive["method"], .string("receive"))
    XCTAssertEqual(receive["params"]?["response"]?["responseId"], .string(responseId))
    XCTAssertEqual(receive["params"]?["deadline"], .string("2026-01-01T08:00:30.000Z"))
    assertJSON(try ok(c.call("completeResponse", .object(["responseId": .string(responseId)]))), "{}")
    try failure(c.call("completeResponse", .object(["responseId": .string(responseId)])), -32003, reason: "notFound")
    // The notification was removed by the response.
    assertJSON(try ok(c.call("listDelivered")), #"{"notifications":[]}"#)
  }

  func testForegroundLockBadgeAndReset() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    assertJSON(try ok(c.call("setForeground", json(#"{"foreground":false}"#))), #"{"foreground":false}"#)
    assertJSON(try ok(c.call("setForeground", json(#"{"foreground":true}"#))), #"{"foreground":true}"#)
    assertJSON(try ok(c.call("setDeviceLocked", json(#"{"locked":true}"#))), #"{"locked":true}"#)
    assertJSON(try ok(c.call("setDeviceLocked", json(#"{"locked":false}"#))), #"{"locked":false}"#)
    assertJSON(try ok(c.call("getBadgeCount")), #"{"count":0}"#)
    assertJSON(try ok(c.call("setBadgeCount", json(#"{"count":7}"#))), #"{"count":7}"#)
    assertJSON(try ok(c.call("getBadgeCount")), #"{"count":7}"#)
    // A delivered notification's badge becomes the app's badge (rule 4).
    try schedule(c, "b", after: nil, content: #"{"title":"T","badge":3}"#)
    assertJSON(try ok(c.call("getBadgeCount")), #"{"count":3}"#)

    try ok(c.call("registerCategories", json(#"{"categories":\#(Self.categories)}"#)))
    try schedule(c, "p", after: 60)
    assertJSON(try ok(c.call("reset")), "{}")
    assertJSON(try ok(c.call("getBadgeCount")), #"{"count":0}"#)
    assertJSON(try ok(c.call("getCategories")), #"{"categories":[]}"#)
    assertJSON(try ok(c.call("listPending")), #"{"requests":[]}"#)
    assertJSON(try ok(c.call("listDelivered")), #"{"notifications":[]}"#)
  }

  func testDiscoverReturnsOpenRPCDocument() throws {
    let d = try startDaemon()
    let c = try d.connect()
    let doc = try ok(c.call("rpc.discover"))
    XCTAssertTrue(doc["openrpc"]?.stringValue?.hasPrefix("1.") ?? false, text(doc))
    XCTAssertEqual(doc["info"]?["title"], .string("uncenter"))
    XCTAssertNotNil(doc["methods"]?.arrayValue)
  }

  /// `rpc.discover` (proto-docs/README.md, "rpc.discover") answers with the OpenRPC
  /// document (proto-docs/openrpc.json), which lists every method served.
  func testDiscoverDocumentListsEveryServedMethod() throws {
    let d = try startDaemon()
    let c = try d.connect()
    let doc = try ok(c.call("rpc.discover"))
    let names = Set(doc["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [])
    let served = [
      "hello", "ping", "registerCategories", "getCategories", "scheduleLocal", "listPending", "removePending",
      "listDelivered", "removeDelivered", "respond", "completeResponse", "setForeground", "setDeviceLocked",
      "setBadgeCount", "getBadgeCount", "advanceClock", "reset",
    ]
    XCTAssertEqual(served.filter { !names.contains($0) }, [], "methods missing from rpc.discover")
  }
}
