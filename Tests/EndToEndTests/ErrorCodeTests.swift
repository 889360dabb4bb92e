import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// The JSON-RPC standard errors and uncenter's application errors, as they reach a client.
final class ErrorCodeTests: EndToEndTestCase {
  func testParseErrorHasNullId() throws {
    let d = try startDaemon()
    let reply = try XCTUnwrap(parseLine(Array(try XCTUnwrap(rawReply(d, #"{"jsonrpc":"2.0","id":1,"method":"#)).utf8)))
    XCTAssertEqual(reply["jsonrpc"], .string("2.0"))
    XCTAssertEqual(reply["id"], .null)
    XCTAssertEqual(reply["error"]?["code"], .int(-32700))
    XCTAssertNil(reply["result"])
  }

  func testInvalidRequestKeepsReadableId() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      #"{"jsonrpc":"2.0","id":7,"method":5}"# + "\n" + #"{"jsonrpc":"1.0","id":"x","method":"ping"}"# + "\n"
        + #"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"# + "\n" + "42\n")
    let replies = (0..<4).map { _ in parseLine(s.readLine()) }
    XCTAssertEqual(replies.map { $0?["error"]?["code"] }, Array(repeating: .int(-32600), count: 4))
    XCTAssertEqual(replies.map { $0?["id"] }, [.int(7), .string("x"), .null, .null])
  }

  func testEmptyBatchGetsOneErrorObject() throws {
    let d = try startDaemon()
    let line = try XCTUnwrap(rawReply(d, "[]"))
    let reply = try XCTUnwrap(parseLine(Array(line.utf8)))
    XCTAssertNotNil(reply.objectValue, "expected a single object, got \(line)")
    XCTAssertEqual(reply["id"], .null)
    XCTAssertEqual(reply["error"]?["code"], .int(-32600))
  }

  func testMethodNotFound() throws {
    let d = try startDaemon()
    let c = try d.connect()
    let e = try failure(c.call("frobnicate"), -32601)
    XCTAssertTrue(e.message.contains("frobnicate"), e.message)
  }

  func testInvalidParamsNameTheField() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    try assertInvalidParams(
      c.call("scheduleLocal", json(#"{"identifier":"x","content":{"title":"T","badge":"3"},"trigger":null}"#)),
      field: "content.badge", problemContains: "expected an integer, got a string")
    try assertInvalidParams(
      c.call("scheduleLocal", json(#"{"identifier":"x","content":{"title":"T","colour":"red"},"trigger":null}"#)),
      field: "content.colour", problemContains: "unknown field")
    try assertInvalidParams(
      c.call("ping", json(#"{"verbose":true}"#)), field: "verbose", problemContains: "unknown field")
    try assertInvalidParams(
      c.call("scheduleLocal", json(#"{"identifier":"x","content":{"title":"T","badge":-1},"trigger":null}"#)),
      field: "content.badge", problemContains: "badgeInputInvalid")
    try assertInvalidParams(
      c.call("setBadgeCount", json(#"{"count":-1}"#)), field: "count", problemContains: "badgeInputInvalid")
    try assertInvalidParams(c.call("setBadgeCount", json(#"{"count":1.5}"#)), field: "count")
    try assertInvalidParams(c.call("advanceClock", json(#"{}"#)), field: "seconds", problemContains: "required")
    try assertInvalidParams(
      c.call("registerCategories", json(#"{"categories":[{"identifier":"a"},{"identifier":"b"},{"identifier":"a"}]}"#)),
      field: "categories[2].identifier", problemContains: "duplicate")
    try assertInvalidParams(
      c.call(
        "registerCategories",
        json(#"{"categories":[{"identifier":"a","actions":[{"identifier":"x","title":"X","options":["loud"]}]}]}"#)),
      field: "categories[0].actions[0].options[0]")
    let fresh = try d.connect()
    try assertInvalidParams(fresh.call("hello", json(#"{"role":"app"}"#)), field: "appId", problemContains: "required")
    try assertInvalidParams(fresh.call("hello", json(#"{"appId":"a","role":"admin"}"#)), field: "role")
    try assertInvalidParams(
      fresh.call("hello", json(#"{"appId":"a","presentation":["banner","banner"]}"#)), field: "presentation[1]")
    // Nothing was registered by the refused calls.
    assertJSON(try ok(c.call("getCategories")), #"{"categories":[]}"#)
  }

  /// Params by position are refused; `[]` means no params (InteropTests).
  func testArrayParamsAreRefused() throws {
    let d = try startDaemon()
    let c = try d.connect()
    let e = try failure(c.call("ping", .array([.int(1)])), -32602)
    XCTAssertTrue(e.message.contains("params"), e.message)
    try failure(c.call("advanceClock", .array([.int(5)])), -32602)
  }

  func testUserTextMissingOrForbidden() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    try ok(c.call("registerCategories", json(#"{"categories":\#(MethodTests.categories)}"#)))
    try schedule(c, "n", after: nil, content: #"{"title":"T","categoryIdentifier":"message"}"#)
    try assertInvalidParams(
      c.call("respond", json(#"{"identifier":"n","actionIdentifier":"reply"}"#)), field: "userText",
      problemContains: "required")
    try assertInvalidParams(
      c.call("respond", json(#"{"identifier":"n","actionIdentifier":"open","userText":"hi"}"#)), field: "userText")
    try assertInvalidParams(
      c.call(
        "respond",
        json(
          #"{"identifier":"n","actionIdentifier":"com.apple.UNNotificationDefaultActionIdentifier","userText":"hi"}"#)),
      field: "userText")
    // The refused responses left the notification delivered.
    XCTAssertEqual(try ok(c.call("listDelivered"))["notifications"]?.arrayValue?.count, 1)
  }

  func testNoApp() throws {
    let d = try startDaemon()
    let c = try d.connect()
    let e = try failure(c.call("getCategories"), -32000, reason: "noApp")
    XCTAssertFalse(e.message.isEmpty)
    try failure(
      c.call("scheduleLocal", json(#"{"identifier":"x","content":{"title":"T"},"trigger":null}"#)), -32000,
      reason: "noApp"
    )
    _ = try ok(c.call("hello", json(#"{"role":"user"}"#)))
    try failure(c.call("listPending"), -32000, reason: "noApp")
    // Naming the app works without hello; ping and advanceClock need no app.
    assertJSON(try ok(c.call("listPending", json(#"{"app":"com.example.chat"}"#))), #"{"requests":[]}"#)
    try ok(c.call("advanceClock", json(#"{"seconds":1}"#)))
  }

  func testNotFound() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    let e = try failure(
      c.call("respond", json(#"{"identifier":"ghost","actionIdentifier":"x"}"#)), -32003, reason: "notFound")
    XCTAssertEqual(e.data?["identifier"], .string("ghost"))
    try failure(c.call("completeResponse", json(#"{"responseId":"resp-999"}"#)), -32003, reason: "notFound")
  }

  func testActionUnavailable() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    try ok(c.call("registerCategories", json(#"{"categories":\#(MethodTests.categories)}"#)))
    try schedule(c, "m", after: nil, content: #"{"title":"T","categoryIdentifier":"message"}"#)
    try schedule(c, "plain", after: nil, content: #"{"title":"T"}"#)
    let e = try failure(
      c.call("respond", json(#"{"identifier":"m","actionIdentifier":"nope"}"#)), -32004, reason: "actionUnavailable")
    XCTAssertEqual(e.data?["action"], .string("nope"))
    // A category action is not offered by a notification without that category.
    try failure(
      c.call("respond", json(#"{"identifier":"plain","actionIdentifier":"open"}"#)), -32004, reason: "actionUnavailable"
    )
  }

  func testAuthenticationRequiredOnLockedDevice() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    try ok(c.call("registerCategories", json(#"{"categories":\#(MethodTests.categories)}"#)))
    try schedule(c, "m", after: nil, content: #"{"title":"T","categoryIdentifier":"message"}"#)
    try ok(c.call("setDeviceLocked", json(#"{"locked":true}"#)))
    let e = try failure(
      c.call("respond", json(#"{"identifier":"m","actionIdentifier":"like"}"#)), -32005,
      reason: "authenticationRequired")
    XCTAssertEqual(e.data?["action"], .string("like"))
    try failure(
      c.call("respond", json(#"{"identifier":"m","actionIdentifier":"like","authenticated":false}"#)), -32005,
      reason: "authenticationRequired")
    let r = try ok(c.call("respond", json(#"{"identifier":"m","actionIdentifier":"like","authenticated":true}"#)))
    XCTAssertEqual(r["delivered"], .bool(true))
    // Actions without authenticationRequired are unaffected by the lock.
    try schedule(c, "m2", after: nil, content: #"{"title":"T","categoryIdentifier":"message"}"#)
    try ok(c.call("respond", json(#"{"identifier":"m2","actionIdentifier":"open"}"#)))
  }

  func testAuthenticationNotNeededWhenUnlocked() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    try ok(c.call("registerCategories", json(#"{"categories":\#(MethodTests.categories)}"#)))
    try schedule(c, "m", after: nil, content: #"{"title":"T","categoryIdentifier":"message"}"#)
    try ok(c.call("respond", json(#"{"identifier":"m","actionIdentifier":"like"}"#)))
  }

  func testInvalidTrigger() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    let zero = try failure(
      c.call(
        "scheduleLocal",
        json(
          #"{"identifier":"x","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":0,"repeats":false}}"#
        )),
      -32008, reason: "invalidTrigger")
    XCTAssertEqual(zero.message, "time interval must be greater than 0")
    let negative = try failure(
      c.call(
        "scheduleLocal",
        json(
          #"{"identifier":"x","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":-5,"repeats":false}}"#
        )),
      -32008, reason: "invalidTrigger")
    XCTAssertEqual(negative.message, "time interval must be greater than 0")
    let repeating = try failure(
      c.call(
        "scheduleLocal",
        json(
          #"{"identifier":"x","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":30,"repeats":true}}"#
        )),
      -32008, reason: "invalidTrigger")
    XCTAssertEqual(repeating.message, "time interval must be at least 60 if repeating")
    // 30 s one-shot and 60 s repeating are fine.
    try schedule(c, "once", after: 30)
    try schedule(c, "rep", after: 60, repeats: true)
    XCTAssertEqual(try ok(c.call("listPending"))["requests"]?.arrayValue?.count, 2)
  }
}
