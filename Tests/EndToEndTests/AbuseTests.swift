import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// Hostile and careless clients against a real daemon: many connections, vanishing
/// clients, binary garbage, pathological JSON, huge values, and a reader that never reads
/// (proto-docs/README.md: "Transport", "JSON-RPC", "Errors", "Limits").
final class AbuseTests: EndToEndTestCase {
  static let app = "com.example.abuse"
  var app: String { Self.app }

  // MARK: helpers

  /// Raises the soft open-file limit so the test process (and the daemon it starts,
  /// which inherits it) can hold `count` descriptors.
  func raiseOpenFileLimit(to count: rlim_t) throws {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { throw HarnessError("getrlimit failed") }
    if limit.rlim_cur >= count { return }
    guard limit.rlim_max >= count else {
      throw XCTSkip("RLIMIT_NOFILE hard limit \(limit.rlim_max) is below \(count)")
    }
    limit.rlim_cur = count
    guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
      throw HarnessError("setrlimit: \(String(cString: strerror(errno)))")
    }
  }

  func ping(_ id: String) -> String { #"{"jsonrpc":"2.0","id":"\#(id)","method":"ping"}"# + "\n" }

  /// `stats.connections` reaching `expected` within `timeout` (closes are noticed asynchronously).
  func waitForConnections(_ c: RPCConnection, _ expected: Int, timeout: Double = 10) throws -> Int {
    let deadline = Date().addingTimeInterval(timeout)
    var seen = -1
    while Date() < deadline {
      seen = try ok(c.call("stats"))["connections"]?.intValue ?? -1
      if seen == expected { return seen }
      usleep(20_000)
    }
    return seen
  }

  // MARK: many connections

  func testThousandConcurrentConnectionsThenMaxConnectionsRefusesThe1101st() throws {
    try raiseOpenFileLimit(to: 4096)
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--max-connections", "1100"])
    var sockets: [RawSocket] = []
    for _ in 0..<1000 { sockets.append(try d.raw()) }
    // Every one of the thousand, held open at once, is answered.
    for (i, s) in sockets.enumerated() { try s.send(ping("p\(i)")) }
    for (i, s) in sockets.enumerated() {
      let reply = parseLine(s.readLine())
      XCTAssertEqual(reply?["id"], .string("p\(i)"), "connection \(i): \(text(reply))")
      XCTAssertNotNil(reply?["result"]?["now"], "connection \(i)")
    }
    // Up to the limit: 100 more, each answered (so each is accepted, not just queued).
    for i in 1000..<1100 {
      let s = try d.raw()
      try s.send(ping("p\(i)"))
      XCTAssertEqual(parseLine(s.readLine())?["id"], .string("p\(i)"), "connection \(i)")
      sockets.append(s)
    }
    let counter = sockets[0]
    try counter.send(#"{"jsonrpc":"2.0","id":"s","method":"stats"}"# + "\n")
    let stats = parseLine(counter.readLine())
    XCTAssertEqual(stats?["result"]?["connections"], .int(1100), text(stats?["result"]?["limits"]))
    XCTAssertEqual(stats?["result"]?["limits"]?["maxConnections"], .int(1100))

    // The 1101st: one -32006 with id null naming the limit, then closed.
    let extra = try d.raw()
    let refused = parseLine(extra.readLine())
    XCTAssertEqual(refused?["id"], .null, text(refused))
    XCTAssertEqual(refused?["error"]?["code"], .int(-32006), text(refused))
    assertJSON(refused?["error"]?["data"], #"{"reason":"limitExceeded","limit":"maxConnections","value":1100}"#)
    XCTAssertTrue(extra.isClosedByPeer(timeout: 5), "the refused connection was left open")
    let log = d.log(containing: "connection_refused")
    XCTAssertTrue(log.contains("connection_refused"), log.suffix(500).description)

    // The held ones are unaffected; freeing one slot lets a new client in.
    try sockets[500].send(ping("again"))
    XCTAssertEqual(parseLine(sockets[500].readLine())?["id"], .string("again"))
    sockets.removeLast().close()
    var admitted = false
    let deadline = Date().addingTimeInterval(10)
    while !admitted, Date() < deadline {
      let s = try d.raw()
      try s.send(ping("late"))
      let reply = parseLine(s.readLine())
      if reply?["id"] == .string("late") { admitted = true } else { usleep(20_000) }
    }
    XCTAssertTrue(admitted, "a slot freed by a closed connection was not reusable")
    for s in sockets { s.close() }
    XCTAssertTrue(d.process.isRunning)
  }

  // MARK: vanishing clients

  func testManyAbruptClosesMidMessageAndMidResponse() throws {
    let d = try startDaemon()
    try seed(d, app: app, badge: 7)
    let bystander = try d.connect()
    for round in 0..<150 {
      // Mid-message: half a request, newline framing and Content-Length framing.
      let half = try d.raw()
      try half.send(#"{"jsonrpc":"2.0","id":1,"method":"removePending","params":{"app":"\#(app)","identif"#)
      half.close()
      let framed = try d.raw()
      try framed.send("Content-Length: 4000\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"reset\"")
      framed.close()
      // Mid-response: many pipelined requests with large answers, closed without reading.
      let greedy = try d.raw()
      var payload = ""
      for i in 0..<200 {
        payload += #"{"jsonrpc":"2.0","id":\#(i),"method":"getCategories","params":{"app":"\#(app)"}}"# + "\n"
      }
      try greedy.send(payload)
      if round % 2 == 0 { _ = greedy.fill(timeout: 0.01) }  // sometimes after part of it arrived
      greedy.close()
      // A mutation cut off mid-request, then a whole one in the same write as a close.
      let mutation = try d.raw()
      try mutation.send(
        #"{"jsonrpc":"2.0","id":2,"method":"setBadgeCount","params":{"app":"\#(app)","count":7}}"# + "\n"
          + #"{"jsonrpc":"2.0","id":3,"method":"setBadgeCo"#)
      mutation.close()
      if round % 25 == 0 {
        assertJSON(try ok(bystander.call("ping")), #"{"now":"2026-01-01T08:00:00.000Z"}"#)
      }
    }
    try assertStateIntact(d, app: app, badge: 7)
    XCTAssertTrue(d.process.isRunning, "daemon died: \(d.stderr.suffix(2000))")
    // Every vanished connection was cleaned up: the bystander and the checker's are left.
    XCTAssertEqual(try waitForConnections(bystander, 1), 1)
    XCTAssertEqual(try ok(bystander.call("stats"))["pausedConnections"], .int(0))
  }

  // MARK: garbage

  func testRandomBinaryGarbageGetsParseErrorsAndHurtsNoOne() throws {
    let d = try startDaemon()
    try seed(d, app: app, badge: 7)
    let bystander = try d.connect()
    var rng = SeededGenerator(seed: 0x5EED_0000_0000_0042)
    let perConnection = 1_536 * 1024
    var parseErrors = 0
    for conn in 0..<4 {
      let s = try d.raw()
      var garbage = [UInt8](repeating: 0, count: perConnection)
      for i in garbage.indices { garbage[i] = UInt8(truncatingIfNeeded: rng.next()) }
      // Never let it look like a Content-Length header (the framing is chosen from the first bytes).
      garbage[0] = 0xFF
      var offset = 0
      while offset < garbage.count {
        let end = min(offset + 65536, garbage.count)
        try s.send(Array(garbage[offset..<end]))
        offset = end
        while s.fill(timeout: 0.001) {}  // keep the answers flowing; they stay buffered
      }
      try s.send("\n" + ping("end\(conn)"))
      var ended = false
      while !ended {
        guard let line = s.readLine(timeout: 20) else {
          XCTFail("connection \(conn): no answer to the closing ping")
          break
        }
        guard let reply = parseLine(line) else {
          XCTFail("connection \(conn): unparsable reply \(String(decoding: line.prefix(200), as: UTF8.self))")
          continue
        }
        if reply["id"] == .string("end\(conn)") {
          XCTAssertNotNil(reply["result"])
          ended = true
          continue
        }
        // A random line can be valid JSON by chance ("7", "[]"): then it is an invalid request.
        let errors: [JSONValue] = reply.arrayValue ?? [reply]
        for e in errors {
          XCTAssertEqual(e["id"], .null, text(e))
          let code = e["error"]?["code"]?.intValue
          XCTAssertTrue(code == -32700 || code == -32600, text(e))
          if code == -32700 { parseErrors += 1 }
        }
      }
      XCTAssertTrue(ended)
      assertJSON(try ok(bystander.call("ping")), #"{"now":"2026-01-01T08:00:00.000Z"}"#)
    }
    XCTAssertGreaterThan(parseErrors, 4 * 1000, "far fewer parse errors than garbage lines")
    try assertStateIntact(d, app: app, badge: 7)
    XCTAssertTrue(d.process.isRunning, "daemon died: \(d.stderr.suffix(2000))")
  }

  // MARK: pathological JSON

  func testDeepNestingIsAParseErrorAndTheDaemonLives() throws {
    let d = try startDaemon()
    for opener in ["[", #"{"a":"#] {
      let s = try d.raw()
      try s.send(String(repeating: opener, count: 100_000) + "\n" + ping("after"))
      let reply = parseLine(s.readLine())
      XCTAssertEqual(reply?["id"], .null, text(reply))
      XCTAssertEqual(reply?["error"]?["code"], .int(-32700), text(reply))
      XCTAssertEqual(parseLine(s.readLine())?["id"], .string("after"), "the connection was not kept")
    }
    // Inside params of a real request, and in a batch.
    let s = try d.raw()
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    try s.send(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":\#(deep)}}"# + "\n")
    XCTAssertEqual(parseLine(s.readLine())?["error"]?["code"], .int(-32700))
    try s.send("[" + deep + "]\n")
    XCTAssertEqual(parseLine(s.readLine())?["error"]?["code"], .int(-32700))
    XCTAssertTrue(d.process.isRunning)
    assertJSON(try ok(d.connect().call("ping")), #"{"now":"2026-01-01T08:00:00.000Z"}"#)
  }

  func testHugeNumbersAreRefusedPreciselyOrEchoed() throws {
    let d = try startDaemon()
    let c = try d.connect()
    for huge in ["1e400", "123456789012345678901234567890", "-1e400", "1.5"] {
      try assertInvalidParams(
        c.call(
          "scheduleLocal",
          json(#"{"app":"\#(app)","identifier":"n","content":{"title":"T","badge":\#(huge)},"trigger":null}"#)),
        field: "content.badge")
    }
    for huge in ["1e400", "123456789012345678901234567890", "-1e400"] {
      try assertInvalidParams(
        c.call(
          "scheduleLocal",
          json(
            #"{"app":"\#(app)","identifier":"n","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":\#(huge),"repeats":false}}"#
          )),
        field: "trigger.timeInterval")
    }
    for (field, huge) in [("summaryArgumentCount", "123456789012345678901234567890"), ("relevanceScore", "1e400")] {
      try assertInvalidParams(
        c.call(
          "scheduleLocal",
          json(#"{"app":"\#(app)","identifier":"n","content":{"title":"T","\#(field)":\#(huge)},"trigger":null}"#)),
        field: "content.\(field)")
    }
    try assertInvalidParams(
      c.call("setBadgeCount", json(#"{"app":"\#(app)","count":123456789012345678901234567890}"#)), field: "count")
    try assertInvalidParams(c.call("advanceClock", json(#"{"seconds":1e400}"#)), field: "seconds")
    // As ids they are echoed exactly, byte for byte.
    let s = try d.raw()
    for id in ["123456789012345678901234567890", "1e400", "-1.5e-400", "18446744073709551616"] {
      try s.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"# + "\n")
      let line = s.readLineText() ?? ""
      XCTAssertTrue(line.hasPrefix(#"{"jsonrpc":"2.0","id":\#(id),"result":"#), line)
    }
    XCTAssertEqual(try ok(c.call("listPending", json(#"{"app":"\#(app)"}"#)))["requests"]?.arrayValue?.count, 0)
  }

  /// Every string field of scheduleLocal (and the identifier), at close to 1 MiB.
  static let stringFields = [
    "title", "subtitle", "body", "sound", "categoryIdentifier", "threadIdentifier", "summaryArgument",
    "targetContentIdentifier", "launchImageName", "filterCriteria", "userInfo",
  ]

  func scheduleText(field: String, value: String) -> String {
    let content: String
    if field == "userInfo" {
      content = #"{"title":"T","userInfo":{"k":"\#(value)"}}"#
    } else if field == "title" {
      content = #"{"title":"\#(value)"}"#
    } else if field == "identifier" {
      content = #"{"title":"T"}"#
    } else {
      content = #"{"title":"T","\#(field)":"\#(value)"}"#
    }
    let identifier = field == "identifier" ? value : "long"
    return
      #"{"jsonrpc":"2.0","id":"\#(field)","method":"scheduleLocal","params":{"app":"\#(app)","identifier":"\#(identifier)","content":\#(content),"trigger":{"type":"timeInterval","timeInterval":600,"repeats":false}}}"#
  }

  func testLongStringsNearTheMessageLimitInEveryField() throws {
    let d = try startDaemon()
    let s = try d.raw()
    let limit = 1_048_576
    for field in Self.stringFields + ["identifier"] {
      // The longest value that keeps the whole message within maxMessageBytes.
      let overhead = scheduleText(field: field, value: "").utf8.count
      let value = String(repeating: "é", count: (limit - overhead - 16) / 2)  // 2 bytes each
      let message = scheduleText(field: field, value: value)
      XCTAssertLessThanOrEqual(message.utf8.count, limit)
      try s.send(message + "\n")
      guard let reply = parseLine(s.readLine(timeout: 30)) else {
        XCTFail("\(field): no answer")
        continue
      }
      XCTAssertEqual(reply["id"], .string(field))
      XCTAssertNotNil(reply["result"], "\(field): \(text(reply).prefix(300))")
      // Read back intact.
      try s.send(#"{"jsonrpc":"2.0","id":"list","method":"listPending","params":{"app":"\#(app)"}}"# + "\n")
      let listed = parseLine(s.readLine(timeout: 30))
      let request = listed?["result"]?["requests"]?.arrayValue?.first
      let stored: String?
      switch field {
      case "identifier": stored = request?["identifier"]?.stringValue
      case "userInfo": stored = request?["content"]?["userInfo"]?["k"]?.stringValue
      default: stored = request?["content"]?[field]?.stringValue
      }
      XCTAssertEqual(stored?.count, value.count, "\(field) not stored intact")
      XCTAssertTrue(stored == value, "\(field) changed")
      let identifier = field == "identifier" ? value : "long"
      try s.send(
        #"{"jsonrpc":"2.0","id":"rm","method":"removePending","params":{"app":"\#(app)","identifiers":["\#(identifier)"]}}"#
          + "\n")
      let removed = parseLine(s.readLine(timeout: 30))
      XCTAssertEqual(removed?["id"], .string("rm"))
      XCTAssertNotNil(removed?["result"], text(removed))
    }
    // One byte over the limit is skipped with -32006, the connection kept.
    let overhead = scheduleText(field: "body", value: "").utf8.count
    try s.send(scheduleText(field: "body", value: String(repeating: "x", count: limit - overhead + 1)) + "\n")
    let over = parseLine(s.readLine(timeout: 30))
    XCTAssertEqual(over?["id"], .null)
    XCTAssertEqual(over?["error"]?["code"], .int(-32006), text(over))
    try s.send(ping("kept"))
    XCTAssertEqual(parseLine(s.readLine())?["id"], .string("kept"))
  }

  func testInvalidUTF8InEachFieldIsAParseError() throws {
    let d = try startDaemon()
    let s = try d.raw()
    for field in Self.stringFields + ["identifier"] {
      for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]] {
        let message = scheduleText(field: field, value: "abc\u{1}def")
        var bytes = Array(message.utf8)
        let marker = bytes.firstIndex(of: 0x01)!
        bytes.replaceSubrange(marker...marker, with: bad)
        try s.send(bytes + [0x0A])
        let reply = parseLine(s.readLine())
        XCTAssertEqual(reply?["id"], .null, "\(field) \(bad): \(text(reply))")
        XCTAssertEqual(reply?["error"]?["code"], .int(-32700), "\(field) \(bad): \(text(reply))")
      }
    }
    try s.send(ping("after"))
    XCTAssertEqual(parseLine(s.readLine())?["id"], .string("after"))
    XCTAssertEqual(
      try ok(d.connect().call("listPending", json(#"{"app":"\#(app)"}"#)))["requests"]?.arrayValue?.count, 0,
      "a request with invalid UTF-8 was kept")
  }

  func testBatchAboveMaxBatchIsRefusedWhole() throws {
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--max-batch", "10"])
    let s = try d.raw()
    func batch(_ n: Int) -> String {
      "["
        + (0..<n).map {
          #"{"jsonrpc":"2.0","id":\#($0),"method":"setBadgeCount","params":{"app":"\#(app)","count":\#($0 + 1)}}"#
        }.joined(separator: ",") + "]\n"
    }
    try s.send(batch(11))
    let refused = parseLine(s.readLine())
    XCTAssertEqual(refused?["id"], .null, text(refused))
    XCTAssertEqual(refused?["error"]?["code"], .int(-32006), text(refused))
    assertJSON(refused?["error"]?["data"], #"{"reason":"limitExceeded","limit":"maxBatch","value":10}"#)
    // None of its entries ran.
    let c = try d.connect()
    assertJSON(try ok(c.call("getBadgeCount", json(#"{"app":"\#(app)"}"#))), #"{"count":0}"#)
    // Far above the limit too, and exactly at it is served.
    try s.send(batch(5000))
    XCTAssertEqual(parseLine(s.readLine())?["error"]?["code"], .int(-32006))
    try s.send(batch(10))
    XCTAssertEqual(parseLine(s.readLine())?.arrayValue?.count, 10)
    assertJSON(try ok(c.call("getBadgeCount", json(#"{"app":"\#(app)"}"#))), #"{"count":10}"#)
  }
}
