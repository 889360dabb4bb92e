import Foundation
import JSONRPC
import UNCenterClient

/// Runs one scenario against a daemon: one connection per app alias plus the built-in
/// `user`, steps in order, a line per step into `record.output`.  Failures carry the
/// expected subset and what actually came, so the diff is readable in CI logs and the
/// HTML report can show both side by side.
final class ScenarioRunner {
  /// One alias's connection and the callbacks it has received (matched ones are used up).
  final class Participant {
    let alias: String
    let connection: RPCConnection
    var inbox: [(message: JSONValue, matched: Bool)] = []
    init(_ alias: String, _ connection: RPCConnection) {
      self.alias = alias
      self.connection = connection
    }

    /// Moves every callback already received (or arriving within `timeout`) into the
    /// inbox; returns how many came.
    @discardableResult
    func pull(timeout: Double) throws -> Int {
      var wait = timeout
      var count = 0
      while let n = try connection.nextNotification(timeout: wait) {
        inbox.append((n, false))
        count += 1
        wait = 0.001
      }
      return count
    }
  }

  struct StepFailure: Error {
    var message: String
    var expected: JSONValue? = nil
    var actual: JSONValue? = nil
  }

  let scenario: Scenario
  /// With `--html`: after each step, collect the callbacks that came and the apps'
  /// notification lists (extra read-only calls, so only when asked for).
  let recording: Bool
  var participants: [String: Participant] = [:]
  /// Aliases in the order the file declares them (`user` first).
  var order: [String] = []
  var record: ScenarioRecord
  /// The last screens recorded, to store only changes.
  var lastScreens: [AppScreen] = []
  /// Per alias, how much of its inbox earlier steps have already reported.
  var reported: [String: Int] = [:]
  /// A connection broke during the run (the daemon may have died).
  var connectionBroke = false

  init(_ scenario: Scenario, file: String, recording: Bool = false) {
    self.scenario = scenario
    self.recording = recording
    record = ScenarioRecord(file: file, name: scenario.name, clock: scenario.clock)
    record.apps = scenario.apps.map {
      ScenarioRecord.App(alias: $0.alias, appId: $0.appId, role: $0.hello["role"]?.stringValue ?? "app")
    }
  }

  func emit(_ line: String) { record.output += line + "\n" }

  /// Connects every alias and says hello; `authorization` is applied first, as Settings would.
  func connect(socket: String) throws {
    let user = Participant("user", try RPCConnection(path: socket))
    participants["user"] = user
    order = ["user"]
    try expectOK(user.connection.call("hello", .object(["role": .string("user")])), "hello as user")
    // Every app is wiped once, before any alias says hello: several aliases of one app (the
    // app, its extensions, an observer) must not wipe what an earlier hello set, such as
    // the app's `foreground: false`.
    var wiped = Set<String>()
    for app in scenario.apps {
      guard let appId = app.appId else { continue }
      if wiped.insert(appId).inserted {
        try expectOK(user.connection.call("reset", .object(["app": .string(appId)])), "reset \(appId)")
      }
      if let status = app.authorization {
        let params = JSONValue.object(["app": .string(appId), "status": .string(status)])
        try expectOK(user.connection.call("setAuthorization", params), "authorization of \(app.alias)")
      }
    }
    for app in scenario.apps {
      var hello = app.hello.objectValue ?? []
      if let appId = app.appId, !hello.contains(where: { $0.name == "appId" }) {
        hello.append(JSONMember("appId", .string(appId)))
      }
      let p = Participant(app.alias, try RPCConnection(path: socket))
      participants[app.alias] = p
      order.append(app.alias)
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

  /// Runs every step until the first failure; fills `record` (steps, failures, output).
  func run() {
    var clock = scenario.clock
    record.steps = scenario.steps.enumerated().map { i, step in
      StepRecord(number: i + 1, label: Self.describe(step), step: step, clock: clock)
    }
    if recording { observeStart() }
    for i in scenario.steps.indices {
      let label = record.steps[i].label
      do {
        record.steps[i].actual = try perform(scenario.steps[i])
        record.steps[i].status = .passed
        if let now = record.steps[i].actual?["now"]?.stringValue, scenario.steps[i]["advance"] != nil { clock = now }
        emit("  ok    \(i + 1) \(label)")
      } catch let failure as StepFailure {
        record.steps[i].status = .failed
        record.steps[i].failure = .init(message: failure.message, expected: failure.expected, actual: failure.actual)
        emit(
          "  FAIL  \(i + 1) \(label)\n"
            + failure.message.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
        record.failures.append("step \(i + 1) \(label): \(failure.message)")
      } catch {
        if error is ConnectionError { connectionBroke = true }
        record.steps[i].status = .failed
        record.steps[i].failure = .init(message: "\(error)")
        emit("  FAIL  \(i + 1) \(label): \(error)")
        record.failures.append("step \(i + 1) \(label): \(error)")
      }
      record.steps[i].clock = clock
      if recording, !connectionBroke { observe(after: i) }
      if record.steps[i].status == .failed { break }
    }
    for i in record.steps.indices where record.steps[i].status == .notRun { record.steps[i].clock = clock }
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

  /// Runs one step; returns what came back (a call's result or error, an advance's
  /// result, the callback an expectation matched).
  private func perform(_ step: JSONValue) throws -> JSONValue? {
    if let method = step["call"]?.stringValue {
      return try call(method, step)
    } else if let seconds = step["advance"] {
      let r = try participant("user").connection.call("advanceClock", .object(["seconds": seconds]))
      switch r {
      case .success(let value): return value
      case .failure(let e): throw StepFailure(message: "advanceClock failed: \(e.code.rawValue) \(e.message)")
      }
    } else if let e = step["expectCallback"] {
      return try expectCallback(e, method: e["method"]?.stringValue, params: e["params"])
    } else if let e = step["expectEvent"] {
      var fields = e.objectValue ?? []
      fields.removeAll { $0.name == "to" || $0.name == "within" }
      return try expectCallback(e, method: "event", params: .object(fields))
    } else if let e = step["expectNoCallback"] {
      try expectNoCallback(e)
      return nil
    } else {
      throw StepFailure(message: "unknown step: \(String(decoding: step.encoded(), as: UTF8.self))")
    }
  }

  private func call(_ method: String, _ step: JSONValue) throws -> JSONValue {
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
      if actual["error"] != nil {
        throw StepFailure(message: "unexpected error:\n" + PrettyJSON.text(actual), expected: nil, actual: actual)
      }
      return actual
    }
    guard actual.matches(expect) else {
      throw StepFailure(
        message: "expected (subset):\n\(PrettyJSON.text(expect))\nactual:\n\(PrettyJSON.text(actual))",
        expected: expect, actual: actual)
    }
    return actual
  }

  private func expectCallback(_ e: JSONValue, method: String?, params: JSONValue?) throws -> JSONValue {
    let p = try participant(e["to"]?.stringValue)
    let within = e["within"]?.doubleValue ?? 2
    let deadline = Date().addingTimeInterval(within)
    func matches(_ m: JSONValue) -> Bool {
      (method == nil || m["method"]?.stringValue == method)
        && (params.map { (m["params"] ?? .null).matches($0) } ?? true)
    }
    while true {
      if let i = p.inbox.firstIndex(where: { !$0.matched && matches($0.message) }) {
        p.inbox[i].matched = true
        return p.inbox[i].message
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0, let n = try p.connection.nextNotification(timeout: left) else { break }
      p.inbox.append((n, false))
    }
    let unmatched = p.inbox.filter { !$0.matched && (method == nil || $0.message["method"]?.stringValue == method) }
    let got = unmatched.isEmpty ? "nothing" : unmatched.map { PrettyJSON.text($0.message) }.joined(separator: "\n")
    let expected = params ?? .object([])
    throw StepFailure(
      message: "no matching \(method ?? "callback") within \(within) s\nexpected params (subset):\n"
        + PrettyJSON.text(expected) + "\nunmatched callbacks received:\n" + got,
      expected: expected, actual: JSONDiff.nearest(to: expected, in: unmatched.map { $0.message["params"] ?? .null }))
  }

  private func expectNoCallback(_ e: JSONValue) throws {
    let p = try participant(e["to"]?.stringValue)
    try p.pull(timeout: e["within"]?.doubleValue ?? 0.05)
    let method = e["method"]?.stringValue
    let unmatched = p.inbox.filter { !$0.matched && (method == nil || $0.message["method"]?.stringValue == method) }
    guard unmatched.isEmpty else {
      throw StepFailure(
        message: "expected no \(method ?? "callback"), got:\n"
          + unmatched.map { PrettyJSON.text($0.message) }.joined(separator: "\n"),
        expected: nil, actual: unmatched.first?.message)
    }
  }
}
