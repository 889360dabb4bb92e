import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// Both framings on the wire, pipelining and split writes.
final class FramingTests: EndToEndTestCase {
  func framed(_ body: String, extraHeader: String? = nil) -> [UInt8] {
    let b = Array(body.utf8)
    var header = "Content-Length: \(b.count)\r\n"
    if let extraHeader { header += extraHeader + "\r\n" }
    return Array((header + "\r\n").utf8) + b
  }

  func testContentLengthRepliesInContentLengthFraming() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      framed(
        #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        extraHeader: "Content-Type: application/vscode-jsonrpc; charset=utf-8"))
    let reply = try XCTUnwrap(s.readContentLengthMessage())
    XCTAssertTrue(reply.header.hasPrefix("Content-Length: "), reply.header)
    let body = try XCTUnwrap(parseLine(reply.body))
    XCTAssertEqual(body["id"], .int(1))
    assertJSON(body["result"], #"{"now":"2026-01-01T08:00:00.000Z"}"#)
    // Exactly the framed reply arrived: nothing trailing.
    XCTAssertTrue(s.buffer.isEmpty, "trailing bytes: \(s.buffer)")
  }

  func testContentLengthPipelinedAndWithCallbacks() throws {
    let d = try startDaemon()
    let s = try d.raw()
    let bodies = [
      #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"appId":"com.example.chat"}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"scheduleLocal","params":{"identifier":"n","content":{"title":"T"},"trigger":null}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"ping"}"#,
    ]
    try s.send(bodies.flatMap { framed($0, extraHeader: "Content-Type: application/json") })
    var ids: [JSONValue?] = []
    var methods: [String] = []
    for _ in 0..<4 {
      let m = parseLine(try XCTUnwrap(s.readContentLengthMessage()).body)
      if let method = m?["method"]?.stringValue { methods.append(method) } else { ids.append(m?["id"]) }
    }
    XCTAssertEqual(ids, [.int(1), .int(2), .int(3)])
    XCTAssertEqual(methods, ["present"])
  }

  func testContentLengthSplitAcrossManyWrites() throws {
    let d = try startDaemon()
    let s = try d.raw()
    let bytes = framed(
      #"{"jsonrpc":"2.0","id":"split","method":"ping"}"#, extraHeader: "Content-Type: application/json")
    for b in bytes {
      try s.send([b])
      usleep(500)
    }
    XCTAssertEqual(parseLine(s.readContentLengthMessage()?.body)?["id"], .string("split"))
  }

  func testNewlineRepliesAreOneLineEach() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    try schedule(c, "n", after: 60, content: #"{"title":"two\nlines","body":"tab\there\r\n"}"#)
    try c.send(#"{"jsonrpc":"2.0","id":"L","method":"listPending"}"# + "\n")
    let line = try XCTUnwrap(c.readLine(timeout: 10))
    XCTAssertFalse(line.contains(0x0D))
    let reply = try XCTUnwrap(parseLine(line))
    XCTAssertEqual(reply["id"], .string("L"))
    XCTAssertEqual(reply["result"]?["requests"]?[0]?["content"]?["title"], .string("two\nlines"))
    XCTAssertEqual(reply["result"]?["requests"]?[0]?["content"]?["body"], .string("tab\there\r\n"))
  }

  func testManyPipelinedRequestsInOneWrite() throws {
    let d = try startDaemon()
    let s = try d.raw()
    let n = 500
    var payload = ""
    for i in 1...n {
      payload +=
        #"{"jsonrpc":"2.0","id":\#(i),"method":"setBadgeCount","params":{"app":"com.example.chat","count":\#(i)}}"#
        + "\n"
    }
    try s.send(payload)
    for i in 1...n {
      let reply = parseLine(s.readLine())
      XCTAssertEqual(reply?["id"], .int(i))
      guard reply?["result"]?["count"] == .int(i) else {
        XCTFail("answer \(i): \(text(reply))")
        return
      }
    }
    let c = try d.connect()
    assertJSON(try ok(c.call("getBadgeCount", json(#"{"app":"com.example.chat"}"#))), #"{"count":\#(n)}"#)
  }

  func testRequestSplitAcrossManyWrites() throws {
    let d = try startDaemon()
    let s = try d.raw()
    let bytes = Array(
      (#"{"jsonrpc":"2.0","id":42,"method":"ping"}"# + "\n" + #"{"jsonrpc":"2.0","id":43,"method":"ping"}"# + "\n").utf8
    )
    for b in bytes {
      try s.send([b])
      usleep(500)
    }
    XCTAssertEqual(parseLine(s.readLine())?["id"], .int(42))
    XCTAssertEqual(parseLine(s.readLine())?["id"], .int(43))
  }

  func testMultibyteCharacterSplitAcrossWrites() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    let request = Array(
      (#"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"identifier":"ż","content":{"title":"żółw 🐢"},"trigger":null}}"#
        + "\n").utf8)
    // Cut inside the 4-byte emoji.
    let emoji = Array("🐢".utf8)
    let cut = try XCTUnwrap(request.firstRange(of: emoji)).lowerBound + 2
    try c.send(Array(request[..<cut]))
    usleep(20_000)
    try c.send(Array(request[cut...]))
    var reply = try c.readMessage(timeout: 10)
    while let m = reply, m["id"] == nil { reply = try c.readMessage(timeout: 10) }
    XCTAssertEqual(reply?["result"]?["scheduled"], .bool(true), text(reply))
    let delivered = try ok(c.call("listDelivered"))
    XCTAssertEqual(delivered["notifications"]?[0]?["request"]?["content"]?["title"], .string("żółw 🐢"))
    XCTAssertEqual(delivered["notifications"]?[0]?["identifier"], .string("ż"))
  }
}
