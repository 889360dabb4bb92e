import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// Errors that need a daemon started with particular options.
final class LimitTests: EndToEndTestCase {
  func bigPing(_ bytes: Int) -> String {
    let pad = String(repeating: "x", count: bytes)
    return #"{"jsonrpc":"2.0","id":99,"method":"ping","params":{"pad":"\#(pad)"}}"#
  }

  func assertOversizedReply(_ reply: JSONValue?, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(reply?["id"], .null, text(reply), file: file, line: line)
    XCTAssertEqual(reply?["error"]?["code"], .int(-32006), text(reply), file: file, line: line)
    assertJSON(
      reply?["error"]?["data"], #"{"reason":"limitExceeded","limit":"maxMessageBytes","value":1024}"#, file: file,
      line: line)
  }

  /// `--max-delivered`: the oldest delivered notifications go first, what went is counted,
  /// and the trimmed list is what a restart from `--state` lists.
  func testDeliveredListKeepsTheNewestAcrossARestart() throws {
    let dir = try freshDirectory()
    let arguments = DaemonProcess.defaultArguments + ["--max-delivered", "2", "--state", dir + "/state"]
    var d = try startDaemon(arguments)
    var user = try userConnection(d)
    for i in 1...3 {
      try ok(user.call("scheduleLocal", json(#"{"app":"a","identifier":"n\#(i)","content":{"title":"N\#(i)"}}"#)))
    }
    let listed = try ok(user.call("listDelivered", json(#"{"app":"a"}"#)))["notifications"]?.arrayValue ?? []
    XCTAssertEqual(listed.compactMap { $0["identifier"]?.stringValue }, ["n3", "n2"])
    let stats = try ok(user.call("stats"))
    XCTAssertEqual(stats["deliveredDropped"], .int(1))
    XCTAssertEqual(stats["limits"]?["maxDeliveredPerApp"], .int(2))
    XCTAssertEqual(d.stop(), 0)

    d = try startDaemon(arguments)
    user = try userConnection(d)
    let reloaded = try ok(user.call("listDelivered", json(#"{"app":"a"}"#)))["notifications"]?.arrayValue ?? []
    XCTAssertEqual(reloaded.compactMap { $0["identifier"]?.stringValue }, ["n3", "n2"])
  }

  func testMaxDeliveredMustBePositive() throws {
    let d = try DaemonProcess(arguments: ["--max-delivered", "0"], waitForSocket: false)
    XCTAssertTrue(d.waitForExit(timeout: 10))
    XCTAssertEqual(d.exitStatus, 2)
    XCTAssertTrue(d.stderr.contains("--max-delivered"), d.stderr)
  }

  func testOversizedLineIsSkippedAndConnectionKept() throws {
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--max-message-bytes", "1024"])
    let s = try d.raw()
    try s.send(
      #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n" + bigPing(2000) + "\n"
        + #"{"jsonrpc":"2.0","id":2,"method":"ping"}"# + "\n")
    let first = parseLine(s.readLine())
    XCTAssertEqual(first?["id"], .int(1))
    XCTAssertNotNil(first?["result"])
    assertOversizedReply(parseLine(s.readLine()))
    let third = parseLine(s.readLine())
    XCTAssertEqual(third?["id"], .int(2))
    XCTAssertNotNil(third?["result"])
    // And later messages still work.
    try s.send(#"{"jsonrpc":"2.0","id":3,"method":"ping"}"# + "\n")
    XCTAssertEqual(parseLine(s.readLine())?["id"], .int(3))
  }

  func testOversizedContentLengthMessageIsSkipped() throws {
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--max-message-bytes", "1024"])
    let s = try d.raw()
    let big = Array(bigPing(2000).utf8)
    let small = Array(#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#.utf8)
    try s.send(
      Array("Content-Length: \(big.count)\r\n\r\n".utf8) + big + Array("Content-Length: \(small.count)\r\n\r\n".utf8)
        + small)
    assertOversizedReply(parseLine(s.readContentLengthMessage()?.body))
    let next = parseLine(s.readContentLengthMessage()?.body)
    XCTAssertEqual(next?["id"], .int(5))
    XCTAssertNotNil(next?["result"])
  }

  func testMessageUnderTheLimitIsServed() throws {
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--max-message-bytes", "1024"])
    let c = try d.connect()
    // Unknown field: so it is read (and refused as params), not skipped as oversized.
    try assertInvalidParams(c.call("ping", json(#"{"pad":"\#(String(repeating: "y", count: 900))"}"#)), field: "pad")
  }

  func testPendingQuota() throws {
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--max-pending", "2"])
    let c = try appConnection(d)
    try schedule(c, "a")
    try schedule(c, "b")
    let e = try failure(
      c.call(
        "scheduleLocal",
        json(
          #"{"identifier":"c","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":60,"repeats":false}}"#
        )),
      -32006, reason: "limitExceeded")
    assertJSON(e.data, #"{"reason":"limitExceeded","limit":"maxPendingPerApp","value":2}"#)
    // Replacing a pending request is not an addition; other apps have their own quota.
    XCTAssertEqual(try schedule(c, "a", after: 120)["replaced"], .bool(true))
    try schedule(c, "c", app: "com.example.other")
    XCTAssertEqual(
      try ok(c.call("listPending"))["requests"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }, ["b", "a"])
  }

  /// `--ios-limits`: the 64 most recently added are kept, the rest dropped with an event.
  func testIOSLimitsKeepTheSixtyFourMostRecentlyAdded() throws {
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--ios-limits"])
    let c = try appConnection(d)
    let observer = try d.connect()
    try ok(observer.call("hello", json(#"{"role":"observer"}"#)))
    try ok(observer.call("watch", json(#"{"apps":["com.example.chat"]}"#)))
    for i in 0..<70 { try schedule(c, "r\(i)", after: 1000 - i) }
    let ids = (try ok(c.call("listPending", json(#"{"limit":100}"#)))["requests"]?.arrayValue ?? [])
      .compactMap { $0["identifier"]?.stringValue }
    XCTAssertEqual(Set(ids), Set((6..<70).map { "r\($0)" }))
    let dropped = try ok(
      observer.call(
        "waitFor", json(#"{"event":{"type":"dropped","reason":"iosLimits","identifier":"r0"},"timeout":5}"#)))
    XCTAssertEqual(dropped["event"]?["identifier"]?.stringValue, "r0")
    assertJSON(try ok(c.call("stats"))["limits"]?["maxPendingPerApp"], "64")
  }

  func testClockNotManual() throws {
    let d = try startDaemon(["--clock", "real"])
    let c = try d.connect()
    let hello = try ok(c.call("hello", json(#"{"role":"user"}"#)))
    XCTAssertEqual(hello["clock"]?["mode"], .string("real"))
    let e = try failure(c.call("advanceClock", json(#"{"seconds":5}"#)), -32007, reason: "clockNotManual")
    XCTAssertFalse(e.message.isEmpty)
  }
}
