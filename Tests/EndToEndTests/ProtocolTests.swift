import Foundation
import JSONRPC
import UNCenterClient
import XCTest

/// JSON-RPC 2.0 details: notifications, batches, ids echoed byte for byte.
final class ProtocolTests: EndToEndTestCase {
  func testNotificationsAreNeverAnswered() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      [
        #"{"jsonrpc":"2.0","method":"ping"}"#,
        #"{"jsonrpc":"2.0","method":"noSuchMethod"}"#,
        #"{"jsonrpc":"2.0","method":"setBadgeCount","params":{"app":"com.example.chat","count":-1}}"#,
        #"{"jsonrpc":"2.0","method":"ping","params":[1,2]}"#,
        #"{"jsonrpc":"2.0","method":"getCategories"}"#,
        #"{"jsonrpc":"2.0","method":"setBadgeCount","params":{"app":"com.example.chat","count":4}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"getBadgeCount","params":{"app":"com.example.chat"}}"#,
      ].joined(separator: "\n") + "\n")
    // The first (and only) answer is the request's; the valid notification took effect.
    let reply = parseLine(s.readLine())
    XCTAssertEqual(reply?["id"], .int(1), text(reply))
    assertJSON(reply?["result"], #"{"count":4}"#)
    XCTAssertNil(s.readLine(timeout: 0.5), "a notification was answered")
  }

  func testBatchAnswersOnlyRequestsInOrder() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"ping"},"#
        + #"{"jsonrpc":"2.0","id":"b","method":"getBadgeCount","params":{"app":"com.example.chat"}},"#
        + #"{"jsonrpc":"2.0","method":"nope"},{"jsonrpc":"2.0","id":3,"method":"nope"}]"# + "\n")
    let reply = try XCTUnwrap(parseLine(s.readLine()))
    let answers = try XCTUnwrap(reply.arrayValue, text(reply))
    XCTAssertEqual(answers.map { $0["id"] }, [.int(1), .string("b"), .int(3)])
    assertJSON(answers[0]["result"], #"{"now":"2026-01-01T08:00:00.000Z"}"#)
    assertJSON(answers[1]["result"], #"{"count":0}"#)
    XCTAssertEqual(answers[2]["error"]?["code"], .int(-32601))
  }

  func testAllNotificationBatchGetsNothing() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      #"[{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","method":"nope"},"#
        + #"{"jsonrpc":"2.0","method":"setBadgeCount","params":{"app":"com.example.chat","count":2}}]"# + "\n"
        + #"{"jsonrpc":"2.0","id":9,"method":"getBadgeCount","params":{"app":"com.example.chat"}}"# + "\n")
    let reply = parseLine(s.readLine())
    XCTAssertEqual(reply?["id"], .int(9), "the batch was answered: \(text(reply))")
    assertJSON(reply?["result"], #"{"count":2}"#)
  }

  func testInvalidEntriesInsideBatch() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      #"[1,{"jsonrpc":"2.0","id":2,"method":"ping"},{"foo":"bar"},{"jsonrpc":"2.0","id":4,"method":7}]"# + "\n")
    let answers = try XCTUnwrap(parseLine(s.readLine())?.arrayValue)
    XCTAssertEqual(answers.count, 4)
    XCTAssertEqual(answers.map { $0["id"] }, [.null, .int(2), .null, .int(4)])
    XCTAssertEqual(answers.map { $0["error"]?["code"] }, [.int(-32600), nil, .int(-32600), .int(-32600)])
    XCTAssertNotNil(answers[1]["result"])
  }

  func testBatchThatIsNotJSONGetsOneParseError() throws {
    let d = try startDaemon()
    let reply = parseLine(Array(try XCTUnwrap(rawReply(d, #"[{"jsonrpc":"2.0","method":"ping"},"#)).utf8))
    XCTAssertNotNil(reply?.objectValue)
    XCTAssertEqual(reply?["id"], .null)
    XCTAssertEqual(reply?["error"]?["code"], .int(-32700))
  }

  func testIdsAreEchoedByteForByte() throws {
    let d = try startDaemon()
    let s = try d.raw()
    let ids = [#""abc""#, #""""#, "1.50", "-0", "1e3", "0", "-17", "2.5E-3", "12345678901234567890123", "null"]
    for id in ids { try s.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"# + "\n") }
    // A failing call echoes its id too.
    try s.send(#"{"id":1.0e+2,"jsonrpc":"2.0","method":"nope"}"# + "\n")
    for id in ids + ["1.0e+2"] {
      let line = try XCTUnwrap(s.readLineText(), "no answer for id \(id)")
      XCTAssertTrue(line.contains(#""id":\#(id),"#) || line.contains(#""id":\#(id)}"#), "id \(id) not echoed: \(line)")
    }
  }

  func testUnicodeStringIdRoundTrips() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(#"{"jsonrpc":"2.0","id":"żółw \u00e9 \"q\"","method":"ping"}"# + "\n")
    XCTAssertEqual(parseLine(s.readLine())?["id"], .string("żółw é \"q\""))
  }

  func testResponsesCarryExactlyOneOfResultOrError() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"nope"}"# + "\n")
    for _ in 0..<2 {
      let r = try XCTUnwrap(parseLine(s.readLine()))
      XCTAssertEqual(r["jsonrpc"], .string("2.0"))
      XCTAssertTrue((r["result"] == nil) != (r["error"] == nil), text(r))
      if let e = r["error"] {
        XCTAssertNotNil(e["code"]?.intValue)
        XCTAssertNotNil(e["message"]?.stringValue)
      }
    }
  }
}
