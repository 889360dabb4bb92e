import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// What clients from the JSON-RPC and LSP world send: `$/cancelRequest`, `params: null`
/// or `[]` for calls without params, and Apple's method names.
final class InteropTests: EndToEndTestCase {
  private func reply(_ s: RawSocket, timeout: Double = 5) -> JSONValue? { parseLine(s.readLine(timeout: timeout)) }

  func testCancelledWaitIsAnsweredAtOnceAndTheConnectionGoesOn() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      #"{"jsonrpc":"2.0","id":"w","method":"waitFor","params":{"event":{"type":"fired"},"timeout":3600}}"# + "\n")
    // The wait is registered before the cancel is read: the ping's answer comes first.
    try s.send(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n")
    XCTAssertEqual(reply(s)?["id"], .int(1))
    let start = Date()
    try s.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"w"}}"# + "\n")
    let cancelled = try XCTUnwrap(reply(s, timeout: 1), "no answer to the cancelled wait within a second")
    XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    XCTAssertEqual(cancelled["id"], .string("w"), text(cancelled))
    XCTAssertEqual(cancelled["error"]?["code"], .int(-32800), text(cancelled))
    XCTAssertEqual(cancelled["error"]?["message"], .string("Request cancelled: \"w\""), text(cancelled))
    // The connection keeps working, and the wait is gone from the daemon's count.
    try s.send(#"{"jsonrpc":"2.0","id":2,"method":"stats"}"# + "\n")
    let stats = try XCTUnwrap(reply(s))
    XCTAssertEqual(stats["id"], .int(2), text(stats))
    XCTAssertEqual(stats["result"]?["waiting"], .int(0), text(stats))
  }

  func testCancelAsARequestSaysWhetherItCancelled() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      #"{"jsonrpc":"2.0","id":7,"method":"waitFor","params":{"event":{"type":"fired"},"timeout":3600}}"# + "\n"
        + #"{"jsonrpc":"2.0","id":"c1","method":"$/cancelRequest","params":{"id":7}}"# + "\n")
    let first = try XCTUnwrap(reply(s))
    XCTAssertEqual(first["id"], .int(7), text(first))
    XCTAssertEqual(first["error"]?["code"], .int(-32800), text(first))
    let second = try XCTUnwrap(reply(s))
    XCTAssertEqual(second["id"], .string("c1"), text(second))
    assertJSON(second["result"], #"{"cancelled":true}"#)
    // Already answered: nothing to cancel.
    try s.send(#"{"jsonrpc":"2.0","id":"c2","method":"$/cancelRequest","params":{"id":7}}"# + "\n")
    let third = try XCTUnwrap(reply(s))
    XCTAssertEqual(third["id"], .string("c2"), text(third))
    assertJSON(third["result"], #"{"cancelled":false}"#)
    // A cancel without an id to cancel is invalid params.
    try s.send(#"{"jsonrpc":"2.0","id":"c3","method":"$/cancelRequest","params":{}}"# + "\n")
    let fourth = try XCTUnwrap(reply(s))
    XCTAssertEqual(fourth["error"]?["code"], .int(-32602), text(fourth))
    XCTAssertEqual(fourth["error"]?["data"]?["field"], .string("id"), text(fourth))
  }

  func testCancelInsideABatch() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      #"{"jsonrpc":"2.0","id":1,"method":"waitFor","params":{"event":{"type":"fired"},"timeout":3600}}"# + "\n"
        + #"[{"jsonrpc":"2.0","id":2,"method":"$/cancelRequest","params":{"id":1}},"#
        + #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":3}},"#
        + #"{"jsonrpc":"2.0","id":3,"method":"waitFor","params":{"event":{"type":"fired"},"timeout":3600}},"#
        + #"{"jsonrpc":"2.0","id":4,"method":"$/cancelRequest","params":{"id":3}}]"# + "\n")
    // The wait before the batch is cancelled first; in the batch, a wait is answered at
    // once (with no event), so there is nothing left to cancel.
    let cancelled = try XCTUnwrap(reply(s))
    XCTAssertEqual(cancelled["id"], .int(1), text(cancelled))
    XCTAssertEqual(cancelled["error"]?["code"], .int(-32800), text(cancelled))
    let batch = try XCTUnwrap(reply(s)?.arrayValue)
    XCTAssertEqual(batch.map { $0["id"] }, [.int(2), .int(3), .int(4)])
    assertJSON(batch[0]["result"], #"{"cancelled":true}"#)
    assertJSON(batch[1]["result"], #"{"event":null}"#)
    assertJSON(batch[2]["result"], #"{"cancelled":false}"#)
  }

  func testCancelsOfUnknownOrOtherConnectionsIdsAreIgnored() throws {
    let d = try startDaemon()
    let waiter = try d.raw()
    try waiter.send(
      #"{"jsonrpc":"2.0","id":5,"method":"waitFor","params":{"event":{"identifier":"x"},"timeout":3600}}"# + "\n"
        + #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n")
    XCTAssertEqual(reply(waiter)?["id"], .int(1))
    let other = try d.raw()
    try other.send(
      #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":5}}"# + "\n"
        + #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":99}}"# + "\n"
        + #"{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"off"}}"# + "\n"
        + #"{"jsonrpc":"2.0","method":"$/progress","params":null}"# + "\n"
        + #"{"jsonrpc":"2.0","id":2,"method":"$/setTrace","params":{"value":"off"}}"# + "\n")
    // The notifications are ignored without an answer; a request of an unknown `$/`
    // method is still an unknown method.
    let answer = try XCTUnwrap(reply(other))
    XCTAssertEqual(answer["id"], .int(2), text(answer))
    XCTAssertEqual(answer["error"]?["code"], .int(-32601), text(answer))
    // The other connection's cancel did not reach the wait, which the event still answers.
    try waiter.send(#"{"jsonrpc":"2.0","id":3,"method":"stats"}"# + "\n")
    let stats = try XCTUnwrap(reply(waiter))
    XCTAssertEqual(stats["result"]?["waiting"], .int(1), text(stats))
    try schedule(try appConnection(d), "x", after: 60)
    let event = try XCTUnwrap(reply(waiter))
    XCTAssertEqual(event["id"], .int(5), text(event))
    XCTAssertEqual(event["result"]?["event"]?["identifier"], .string("x"), text(event))
  }

  func testNullAndEmptyArrayParamsMeanNoParams() throws {
    let d = try startDaemon()
    let s = try d.raw()
    for (n, (method, params)) in [
      ("ping", "null"), ("ping", "[]"), ("stats", "null"), ("stats", "[]"),
      ("listPending", "null"), ("listPending", "[]"),
    ].enumerated() {
      try s.send(#"{"jsonrpc":"2.0","id":\#(n),"method":"\#(method)","params":\#(params)}"# + "\n")
      let answer = try XCTUnwrap(reply(s), "\(method) \(params)")
      XCTAssertEqual(answer["id"], .int(n), text(answer))
      switch method {
      // No app named and no hello: listPending's default app is missing, as with `{}`.
      case "listPending": XCTAssertEqual(answer["error"]?["code"], .int(-32000), "\(params): \(text(answer))")
      default: XCTAssertNotNil(answer["result"], "\(method) \(params): \(text(answer))")
      }
    }
    let app = try appConnection(d)
    for params in ["null", "[]"] {
      try app.send(#"{"jsonrpc":"2.0","id":1,"method":"listPending","params":\#(params)}"# + "\n")
      let answer = try XCTUnwrap(parseLine(app.readLine(timeout: 5)))
      assertJSON(answer["result"], #"{"requests":[]}"#)
    }
    // Required params are still required, named as for `{}`.
    for params in ["null", "[]", "{}"] {
      try app.send(#"{"jsonrpc":"2.0","id":2,"method":"scheduleLocal","params":\#(params)}"# + "\n")
      let answer = try XCTUnwrap(parseLine(app.readLine(timeout: 5)))
      XCTAssertEqual(answer["error"]?["code"], .int(-32602), "\(params): \(text(answer))")
      XCTAssertEqual(answer["error"]?["data"]?["field"], .string("identifier"), "\(params): \(text(answer))")
    }
    // Other arrays are refused as before.
    let array = try XCTUnwrap(
      parseLine(Array((try rawReply(d, #"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#) ?? "").utf8)))
    XCTAssertEqual(array["error"]?["code"], .int(-32602), text(array))
  }

  func testAppleMethodNamesAndTyposGetAHint() throws {
    let d = try startDaemon()
    let c = try d.connect()
    for (name, hint) in [
      ("getPendingNotificationRequests", "listPending"), ("add", "scheduleLocal"),
      ("removeAllDeliveredNotifications", "removeDelivered"), ("listPendng", "listPending"),
    ] {
      let e = try failure(c.call(name, nil), -32601)
      XCTAssertEqual(e.message, "Method not found: \(name); did you mean '\(hint)'?")
      XCTAssertEqual(e.data?["suggestion"], .string(hint))
    }
    let e = try failure(c.call("frobnicate", nil), -32601)
    XCTAssertEqual(e.message, "Method not found: frobnicate")
  }
}
