import Foundation
import JSONRPC
import TestSupport
import XCTest

/// `--state` commits off the loop: answers are held until their commit is durable, and a
/// connection's answers keep their order even when a later request touched no state.
final class CommitOrderTests: EndToEndTestCase {
  /// A `--state` daemon on the real clock.
  private func realClockStateDaemon(_ dir: String) throws -> DaemonProcess {
    let d = try DaemonProcess(arguments: ["--state", dir + "/state"], directory: dir)
    addTeardownBlock { [d] in d.stop() }
    return d
  }

  /// Request `i` of a burst: a change, a call that changes nothing, or an error.
  private func request(_ i: Int) -> String {
    switch i % 3 {
    case 0:
      return
        #"{"jsonrpc":"2.0","id":\#(i),"method":"scheduleLocal","params":{"app":"com.order","identifier":"r\#(i)","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":86400,"repeats":false}}}"#
    case 1: return #"{"jsonrpc":"2.0","id":\#(i),"method":"ping"}"#
    default: return #"{"jsonrpc":"2.0","id":\#(i),"method":"noSuchMethod"}"#
    }
  }

  /// Reads `count` answers and checks they come in request order with the right kind.
  private func readAnswers(_ s: RawSocket, count: Int, file: StaticString = #filePath, line: UInt = #line) {
    for i in 0..<count {
      guard let answer = parseLine(s.readLine(timeout: 30)) else {
        XCTFail("answer \(i) of \(count) missing", file: file, line: line)
        return
      }
      XCTAssertEqual(answer["id"]?.intValue, i, "answers out of order", file: file, line: line)
      if i % 3 == 2 {
        XCTAssertEqual(answer["error"]?["code"]?.intValue, -32601, file: file, line: line)
      } else {
        XCTAssertNotNil(answer["result"], "\(answer)", file: file, line: line)
      }
      if answer["id"]?.intValue != i { return }
    }
  }

  func testPipelinedAnswersKeepTheirOrderAndSurviveKill9() throws {
    let dir = try freshDirectory()
    var d = try realClockStateDaemon(dir)
    let count = 3000
    let s = try d.raw()
    // Sent in pieces so the daemon reads them over many loop turns, while commits run.
    for start in stride(from: 0, to: count, by: 100) {
      try s.send((start..<min(count, start + 100)).map(request).joined(separator: "\n") + "\n")
    }
    readAnswers(s, count: count)
    // Every scheduleLocal was acknowledged, so every one must be there after kill -9.
    XCTAssertTrue(d.kill9())
    d = try realClockStateDaemon(dir)
    let user = try d.connect()
    let pending = try ok(user.call("listPending", json(#"{"app":"com.order"}"#)))["requests"]?.arrayValue ?? []
    XCTAssertEqual(pending.count, count / 3)
  }

  /// A client that sends a burst and closes its side still gets every answer (held for
  /// its commit) before the daemon closes the connection.
  func testHalfClosedConnectionGetsItsHeldAnswersBeforeClosing() throws {
    let dir = try freshDirectory()
    let d = try realClockStateDaemon(dir)
    let s = try d.raw()
    let count = 600
    try s.send((0..<count).map(request).joined(separator: "\n") + "\n")
    s.shutdownWrite()
    readAnswers(s, count: count)
    XCTAssertTrue(s.isClosedByPeer(timeout: 10))
  }

  /// Two connections at once: one only pings, the other changes state; neither waits for
  /// ever and each gets its answers in order.
  func testConnectionsWithAndWithoutChangesInterleave() throws {
    let dir = try freshDirectory()
    let d = try realClockStateDaemon(dir)
    let writer = try d.raw()
    let pinger = try d.raw()
    let count = 900
    try writer.send((0..<count).map(request).joined(separator: "\n") + "\n")
    try pinger.send(
      (0..<count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"ping"}"# }.joined(separator: "\n") + "\n")
    for i in 0..<count {
      let answer = parseLine(pinger.readLine(timeout: 30))
      XCTAssertEqual(answer?["id"]?.intValue, i)
      if answer?["id"]?.intValue != i { break }
    }
    readAnswers(writer, count: count)
  }
}
