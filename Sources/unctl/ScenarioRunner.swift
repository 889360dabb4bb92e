import Foundation
import JSONRPC
import UNCenterClient

/// Runs one scenario against a daemon: one connection per app alias plus the built-in
/// `user`, steps in order, a line per step.  Failures carry the expected subset and what
/// actually came, so the diff is readable in CI logs.
final class ScenarioRunner {
  /// One alias's connection and the callbacks it has received (matched ones are used up).
  final class Participant {
    let connection: RPCConnection
    var inbox: [(message: JSONValue, matched: Bool)] = []
    init(_ connection: RPCConnection) { self.connection = connection }

    /// Moves every callback already received (or arriving within `timeout`) into the inbox.
    func pull(timeout: Double) throws {
      var wait = timeout
      while let n = try connection.nextNotification(timeout: wait) {
        inbox.append((n, false))
        wait = 0.001
      }
    }
  }

  struct StepFailure: Error {
    var message: String
  }

  let scenario: Scenario
  let output: (String) -> Void
  var participants: [String: Participant] = [:]

  init(_ scenario: Scenario, output: @escaping (String) -> Void) {
    self.scenario = scenario
    self.output = output
  }

  /// Connects every alias and says hello; `authorization` is applied first, as Settings would.
  func connect(socket: String) throws {
    let user = Participant(try RPCConnection(path: socket))
    participants["user"] = user
    try expectOK(user.connection.call("hello", .object(["role": .string("user")])), "hello as user")
    for app in scenario.apps {
      if let appId = app.appId {
        try expectOK(user.connection.call("reset", .object(["app": .string(appId)])), "reset \(appId)")
        if let status = app.authorization {
          let params = JSONValue.object(["app": .string(appId), "status": .string(status)])
          try expectOK(user.connection.call("setAuthorization", params), "authorization of \(app.alias)")
        }
      }
      var hello = app.hello.objectValue ?? []
      if let appId = app.appId, !hello.contains(where: { $0.name == "appId" }) {
        hello.append(JSONMember("appId", .string(appId)))
      }
      let p = Participant(try RPCConnection(path: socket))
      participants[app.alias] = p
      try expectOK(p.connection.call("hello", .object(hello)), "hello as \(app.alias)")
      if app.hello["role"]?.stringValue == "observer" {
        let apps: JSONValue? = app.appId.map { .object(["apps": .array([.string($0)])]) }
        try expectOK(p.connection.call("watch", apps), "watch as \(app.alias)")
      }
    }
  }

  private func expectOK(_ r: Result<JSONValue, RPCError>, _ what: String) throws {
    if case .failure(let e) = r { throw ScenarioError("\(what) failed: \(e.code.rawValue) \(e.message)") }
  }

  /// Runs every step; returns the failures (empty = passed).
  func run() -> [String] {
    var failures: [String] = []
    for (i, step) in scenario.steps.enumerated() {
      let label = Self.describe(step)
      do {
        try perform(step)
        output("  ok    \(i + 1) \(label)")
      } catch let failure as StepFailure {
        output("  FAIL  \(i + 1) \(label)\n" + failure.message.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
        failures.append("step \(i + 1) \(label): \(failure.message)")
        break
      } catch {
        output("  FAIL  \(i + 1) \(label): \(error)")
        failures.append("step \(i + 1) \(label): \(error)")
        break
      }
    }
    return failures
  }

  static func describe(_ step: JSONValue) -> String {
    if let method = step["call"]?.stringValue { return "\(step["as"]?.stringValue ?? "user") → \(method)" }
    if let s = step["advance"] { return "advance \(String(decoding: s.encoded(), as: UTF8.self)) s" }
    for kind in ["expectCallback", "expectNoCallback", "expectEvent"] {
      if let e = step[kind] {
        return "\(kind) \(e["to"]?.stringValue ?? "?")" + (e["method"]?.stringValue.map { " \($0)" } ?? "")
      }
    }
    return "unknown step"
  }

  private func participant(_ alias: String?) throws -> Participant {
    let name = alias ?? "user"
    guard let p = participants[name] else { throw StepFailure(message: "no app alias '\(name)' in this scenario") }
    return p
  }

  private func perform(_ step: JSONValue) throws {
    if let method = step["call"]?.stringValue {
      try call(method, step)
    } else if let seconds = step["advance"] {
      let r = try participant("user").connection.call("advanceClock", .object(["seconds": seconds]))
      if case .failure(let e) = r { throw StepFailure(message: "advanceClock failed: \(e.code.rawValue) \(e.message)") }
    } else if let e = step["expectCallback"] {
      try expectCallback(e, method: e["method"]?.stringValue, params: e["params"])
    } else if let e = step["expectEvent"] {
      var fields = e.objectValue ?? []
      fields.removeAll { $0.name == "to" || $0.name == "within" }
      try expectCallback(e, method: "event", params: .object(fields))
    } else if let e = step["expectNoCallback"] {
      try expectNoCallback(e)
    } else {
      throw StepFailure(message: "unknown step: \(String(decoding: step.encoded(), as: UTF8.self))")
    }
  }

  private func call(_ method: String, _ step: JSONValue) throws {
    let result = try participant(step["as"]?.stringValue).connection.call(method, step["params"])
    let actual: JSONValue
    switch result {
    case .success(let value): actual = .object(["result": value])
    case .failure(let e):
      var error: [JSONMember] = [JSONMember("code", .int(e.code.rawValue)), JSONMember("message", .string(e.message))]
      if let data = e.data { error.append(JSONMember("data", data)) }
      actual = .object(["error": .object(error)])
    }
    guard let expect = step["expect"] else {
      if actual["error"] != nil { throw StepFailure(message: "unexpected error:\n" + PrettyJSON.text(actual)) }
      return
    }
    guard actual.matches(expect) else {
      throw StepFailure(message: "expected (subset):\n\(PrettyJSON.text(expect))\nactual:\n\(PrettyJSON.text(actual))")
    }
  }

  private func expectCallback(_ e: JSONValue, method: String?, params: JSONValue?) throws {
    let p = try participant(e["to"]?.stringValue)
    let within = e["within"]?.doubleValue ?? 2
    let deadline = Date().addingTimeInterval(within)
    func matches(_ m: JSONValue) -> Bool {
      (method == nil || m["method"]?.stringValue == method) && (params.map { (m["params"] ?? .null).matches($0) } ?? true)
    }
    while true {
      if let i = p.inbox.firstIndex(where: { !$0.matched && matches($0.message) }) {
        p.inbox[i].matched = true
        return
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0, let n = try p.connection.nextNotification(timeout: left) else { break }
      p.inbox.append((n, false))
    }
    let unmatched = p.inbox.filter { !$0.matched && (method == nil || $0.message["method"]?.stringValue == method) }
    let got = unmatched.isEmpty ? "nothing" : unmatched.map { PrettyJSON.text($0.message) }.joined(separator: "\n")
    throw StepFailure(
      message: "no matching \(method ?? "callback") within \(within) s\nexpected params (subset):\n"
        + PrettyJSON.text(params ?? .object([])) + "\nunmatched callbacks received:\n" + got)
  }

  private func expectNoCallback(_ e: JSONValue) throws {
    let p = try participant(e["to"]?.stringValue)
    try p.pull(timeout: e["within"]?.doubleValue ?? 0.05)
    let method = e["method"]?.stringValue
    let unmatched = p.inbox.filter { !$0.matched && (method == nil || $0.message["method"]?.stringValue == method) }
    guard unmatched.isEmpty else {
      throw StepFailure(
        message: "expected no \(method ?? "callback"), got:\n" + unmatched.map { PrettyJSON.text($0.message) }.joined(separator: "\n"))
    }
  }
}
