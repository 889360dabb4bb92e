import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// Clients that vanish, stop writing, or send garbage do not hurt the daemon or its state.
final class RobustnessTests: EndToEndTestCase {
  let app = "com.example.chat"

  func testDisconnectMidMessage() throws {
    let d = try startDaemon()
    try seed(d, app: app, badge: 5)
    let bystander = try d.connect()
    let s = try d.raw()
    try s.send(#"{"jsonrpc":"2.0","id":1,"method":"removePending","params":{"app":"\#(app)"#)
    s.close()
    let framed = try d.raw()
    try framed.send("Content-Length: 500\r\n\r\n{\"jsonrpc\":")
    framed.close()
    try assertStateIntact(d, app: app, badge: 5)
    assertJSON(try ok(bystander.call("ping")), #"{"now":"2026-01-01T08:00:00.000Z"}"#)
  }

  func testDisconnectMidResponse() throws {
    let d = try startDaemon()
    try seed(d, app: app, badge: 5)
    for _ in 0..<3 {
      let s = try d.raw()
      var payload = ""
      for i in 1...1000 {
        payload += #"{"jsonrpc":"2.0","id":\#(i),"method":"getCategories","params":{"app":"\#(app)"}}"# + "\n"
      }
      try s.send(payload)
      s.close()
    }
    try assertStateIntact(d, app: app, badge: 5)
    XCTAssertTrue(d.process.isRunning)
  }

  func testHalfClosedClientGetsEveryAnswer() throws {
    let d = try startDaemon()
    let c = try d.connect()
    var payload = ""
    for i in 1...50 { payload += #"{"jsonrpc":"2.0","id":\#(i),"method":"ping"}"# + "\n" }
    try c.send(payload)
    c.shutdownWrite()
    for i in 1...50 {
      let reply = try c.readMessage(timeout: 10)
      XCTAssertEqual(reply?["id"], .int(i), text(reply))
    }
    XCTAssertTrue(c.isClosedByPeer(timeout: 10), "the daemon did not close after answering")
  }

  func testHalfClosedContentLengthClientGetsEveryAnswer() throws {
    let d = try startDaemon()
    let s = try d.raw()
    var bytes: [UInt8] = []
    for i in 1...20 {
      let body = Array(#"{"jsonrpc":"2.0","id":\#(i),"method":"ping"}"#.utf8)
      bytes += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
    try s.send(bytes)
    s.shutdownWrite()
    for i in 1...20 {
      XCTAssertEqual(parseLine(s.readContentLengthMessage()?.body)?["id"], .int(i))
    }
    XCTAssertTrue(s.isClosedByPeer(timeout: 10))
  }

  /// KNOWN DAEMON BUG: a newline-framed client that half-closes right after a final
  /// request without its trailing newline (`printf '{...}' | socat - UNIX-CONNECT:...`)
  /// gets no answer and no error for it: the complete JSON text before end of stream is
  /// silently dropped.  Expected: end of stream ends the last line, which is answered
  /// (every request read gets exactly one answer, also at the end of its stream).
  func testUnterminatedLastLineIsAnsweredAtEndOfStream() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
    s.shutdownWrite()
    XCTAssertEqual(parseLine(s.readLine())?["id"], .int(1))
    let last = parseLine(s.readLine(timeout: 5) ?? (s.buffer.isEmpty ? nil : s.buffer))
    XCTAssertEqual(last?["id"], .int(2), "the unterminated last request was not answered")
  }

  func testGarbageGetsParseErrorAndConnectionIsKept() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send("@@ not json @@\n")
    let first = parseLine(s.readLine())
    XCTAssertEqual(first?["error"]?["code"], .int(-32700), text(first))
    XCTAssertEqual(first?["id"], .null)
    try s.send([0xFF, 0xFE, 0x22, 0x0A] + Array("{\"a\":}\n".utf8) + Array("plain words\n".utf8))
    for _ in 0..<3 {
      let reply = parseLine(s.readLine())
      XCTAssertEqual(reply?["error"]?["code"], .int(-32700), text(reply))
    }
    try s.send(#"{"jsonrpc":"2.0","id":"after","method":"ping"}"# + "\n")
    let after = parseLine(s.readLine())
    XCTAssertEqual(after?["id"], .string("after"))
    XCTAssertNotNil(after?["result"])
  }

  func testBrokenContentLengthHeaderClosesOnlyThatConnection() throws {
    let d = try startDaemon()
    let bystander = try d.connect()
    let s = try d.raw()
    try s.send("Content-Length: twelve\r\n\r\n{}")
    let reply = try XCTUnwrap(s.readContentLengthMessage(), "no framed parse error")
    let body = parseLine(reply.body)
    XCTAssertEqual(body?["error"]?["code"], .int(-32700), text(body))
    XCTAssertEqual(body?["id"], .null)
    XCTAssertTrue(s.isClosedByPeer(timeout: 10), "a connection without a trustworthy length must be closed")
    assertJSON(try ok(bystander.call("ping")), #"{"now":"2026-01-01T08:00:00.000Z"}"#)
  }

  func testBlankLinesBetweenMessagesAreIgnored() throws {
    let d = try startDaemon()
    let s = try d.raw()
    try s.send(
      "\n\n" + #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n\n\r\n" + #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#
        + "\n")
    XCTAssertEqual(parseLine(s.readLine())?["id"], .int(1))
    XCTAssertEqual(parseLine(s.readLine())?["id"], .int(2))
  }

  func testManyConcurrentClients() throws {
    let d = try startDaemon()
    let clients = try (0..<40).map { _ in try d.raw() }
    for (i, s) in clients.enumerated() {
      try s.send(
        #"{"jsonrpc":"2.0","id":\#(i),"method":"setBadgeCount","params":{"app":"app\#(i)","count":\#(i)}}"# + "\n")
    }
    for (i, s) in clients.enumerated() {
      let reply = parseLine(s.readLine())
      XCTAssertEqual(reply?["id"], .int(i))
      XCTAssertEqual(reply?["result"]?["count"], .int(i))
    }
    let c = try d.connect()
    assertJSON(try ok(c.call("getBadgeCount", json(#"{"app":"app39"}"#))), #"{"count":39}"#)
  }

  func testAppConnectionClosingSendsAppToBackground() throws {
    let d = try startDaemon()
    do {
      let a = try appConnection(d)
      try ok(a.call("ping"))
    }  // the connection is closed here
    let u = try userConnection(d)
    try schedule(u, "n", after: nil, app: app)
    // The app has no connection left: its response is queued, not lost.
    let r = try ok(
      u.call(
        "respond",
        json(
          #"{"app":"\#(app)","identifier":"n","actionIdentifier":"com.apple.UNNotificationDefaultActionIdentifier"}"#)))
    XCTAssertEqual(r["queued"], .bool(true), text(r))
  }
}
