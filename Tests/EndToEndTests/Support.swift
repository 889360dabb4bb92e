import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// Parses one raw reply line.
func parseLine(_ bytes: [UInt8]?) -> JSONValue? {
  guard let bytes else { return nil }
  return try? JSONParser.parse(bytes)
}

/// Objects with their members sorted by name, recursively, so comparisons ignore order.
func canonical(_ v: JSONValue) -> JSONValue {
  switch v {
  case .object(let members):
    return .object(members.sorted { $0.name < $1.name }.map { JSONMember($0.name, canonical($0.value)) })
  case .array(let items):
    return .array(items.map(canonical))
  default:
    return v
  }
}

func text(_ v: JSONValue?) -> String { v.map { String(decoding: canonical($0).encoded(), as: UTF8.self) } ?? "nil" }

/// Base class: starts daemons that are stopped after the test, with call helpers.
class EndToEndTestCase: XCTestCase {
  static let start = "2026-01-01T08:00:00.000Z"

  /// Starts a daemon (default: manual clock at 2026-01-01T08:00:00Z) stopped at teardown.
  func startDaemon(_ arguments: [String] = DaemonProcess.defaultArguments) throws -> DaemonProcess {
    let daemon = try DaemonProcess(arguments: arguments)
    addTeardownBlock { [daemon] in
      daemon.stop()
      try? FileManager.default.removeItem(atPath: daemon.directory)
    }
    return daemon
  }

  /// A fresh directory under /tmp, removed after the test.
  func freshDirectory() throws -> String {
    let dir = try DaemonProcess.makeTemporaryDirectory()
    addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
    return dir
  }

  /// A daemon keeping its state in `dir/state` (manual clock at 2026-01-01T08:00:00Z, then
  /// `extra` arguments), its socket and log in `dir`, stopped at teardown.
  func stateDaemon(_ dir: String, _ extra: [String] = [], waitForSocket: Bool = true) throws -> DaemonProcess {
    let d = try DaemonProcess(
      arguments: ["--clock", "manual=2026-01-01T08:00:00Z", "--state", dir + "/state"] + extra, directory: dir,
      waitForSocket: waitForSocket)
    addTeardownBlock { [d] in d.stop() }
    return d
  }

  /// A connection that said `hello` as an app (role app, foreground).
  func appConnection(_ daemon: DaemonProcess, appId: String = "com.example.chat", extra: String = "") throws
    -> RPCConnection
  {
    let c = try daemon.connect()
    let params = extra.isEmpty ? #"{"appId":"\#(appId)"}"# : #"{"appId":"\#(appId)",\#(extra)}"#
    _ = try ok(c.call("hello", json(params)))
    return c
  }

  /// A connection that said `hello` as the user (no app bound).
  func userConnection(_ daemon: DaemonProcess) throws -> RPCConnection {
    let c = try daemon.connect()
    _ = try ok(c.call("hello", json(#"{"role":"user"}"#)))
    return c
  }

  /// The result of a call that must succeed.
  @discardableResult
  func ok(_ r: Result<JSONValue, RPCError>, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
    switch r {
    case .success(let v): return v
    case .failure(let e):
      XCTFail("unexpected error \(e.code.rawValue): \(e.message) \(text(e.data))", file: file, line: line)
      throw HarnessError("call failed")
    }
  }

  /// The error of a call that must fail with `code`.
  @discardableResult
  func failure(
    _ r: Result<JSONValue, RPCError>, _ code: Int, reason: String? = nil, file: StaticString = #filePath,
    line: UInt = #line
  ) throws -> RPCError {
    switch r {
    case .success(let v):
      XCTFail("expected error \(code), got result \(text(v))", file: file, line: line)
      throw HarnessError("call succeeded")
    case .failure(let e):
      XCTAssertEqual(e.code.rawValue, code, "message: \(e.message)", file: file, line: line)
      if let reason {
        XCTAssertEqual(e.data?["reason"]?.stringValue, reason, "data: \(text(e.data))", file: file, line: line)
      }
      return e
    }
  }

  /// Asserts two JSON values are equal, ignoring object member order.
  func assertJSON(_ actual: JSONValue?, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(text(actual), text(json(expected)), file: file, line: line)
  }

  /// `-32602` naming `field` (in `data.field` and the message).
  func assertInvalidParams(
    _ r: Result<JSONValue, RPCError>, field: String, problemContains: String? = nil, file: StaticString = #filePath,
    line: UInt = #line
  ) throws {
    let e = try failure(r, -32602, file: file, line: line)
    XCTAssertEqual(e.data?["field"]?.stringValue, field, e.message, file: file, line: line)
    XCTAssertTrue(e.message.contains(field), e.message, file: file, line: line)
    if let problemContains {
      XCTAssertTrue(
        e.message.contains(problemContains), "\(e.message) lacks '\(problemContains)'", file: file, line: line)
    }
  }

  /// Schedules a time-interval request for the app bound on `c` (or `app`).
  @discardableResult
  func schedule(
    _ c: RPCConnection, _ identifier: String, after seconds: Int? = 60, repeats: Bool = false,
    content: String = #"{"title":"T","body":"B"}"#, app: String? = nil, file: StaticString = #filePath,
    line: UInt = #line
  ) throws -> JSONValue {
    let trigger = seconds.map { #"{"type":"timeInterval","timeInterval":\#($0),"repeats":\#(repeats)}"# } ?? "null"
    let appPart = app.map { #""app":"\#($0)","# } ?? ""
    return try ok(
      c.call(
        "scheduleLocal",
        json(#"{\#(appPart)"identifier":"\#(identifier)","content":\#(content),"trigger":\#(trigger)}"#)),
      file: file, line: line)
  }

  /// Sends raw text on a fresh newline-framed connection's socket and reads one reply line.
  func rawReply(_ daemon: DaemonProcess, _ line: String, file: StaticString = #filePath, line l: UInt = #line) throws
    -> String?
  {
    let s = try daemon.raw()
    try s.send(line + "\n")
    return s.readLineText()
  }
}
