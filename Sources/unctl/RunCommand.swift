import Foundation
import JSONRPC

/// `unctl run SCENARIO...`: each scenario against a fresh private daemon (or, with
/// `--socket`, against a running one, after `reset` of its apps).  Prints a line per
/// step, then `N passed, N failed`; exit status 1 when any failed.
enum RunCommand {
  static let usage = """
    usage: unctl [--socket PATH] run [--junit FILE] SCENARIO.json...

    Runs scenario files (SPEC §8).  Without --socket each scenario gets its own uncenterd
    (manual clock at the scenario's "clock", temporary socket); with --socket they run
    against that daemon, resetting their apps first.  Exit status: 0 all passed, 1 a
    scenario failed, 2 usage or unreadable file.
    """

  struct Outcome {
    var file: String
    var name: String
    var failures: [String]
    var seconds: Double
  }

  static func main(_ arguments: [String], socket: String?) -> Int32 {
    var files: [String] = []
    var junit: String?
    var args = arguments[...]
    while let a = args.popFirst() {
      switch a {
      case "-h", "--help":
        print(usage)
        return 0
      case "--junit":
        guard let f = args.popFirst() else { return usageError("--junit needs a file") }
        junit = f
      default:
        if a.hasPrefix("-") { return usageError("unknown option '\(a)'") }
        files.append(a)
      }
    }
    guard !files.isEmpty else { return usageError("no scenario files") }
    var outcomes: [Outcome] = []
    for file in files {
      let started = Date()
      var outcome = Outcome(file: file, name: file, failures: [], seconds: 0)
      do {
        let scenario = try load(file)
        outcome.name = scenario.name
        print("scenario \(file): \(scenario.name)")
        outcome.failures = try run(scenario, socket: socket)
      } catch {
        print("  FAIL  \(error)")
        outcome.failures = ["\(error)"]
      }
      outcome.seconds = Date().timeIntervalSince(started)
      outcomes.append(outcome)
    }
    let failed = outcomes.filter { !$0.failures.isEmpty }.count
    print("\(outcomes.count - failed) passed, \(failed) failed")
    if let junit {
      do {
        try writeJUnit(outcomes, to: junit)
      } catch {
        FileHandle.standardError.write(Data("unctl run: cannot write --junit \(junit): \(error.localizedDescription)\n".utf8))
        return 1
      }
    }
    return failed == 0 ? 0 : 1
  }

  static func usageError(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data("unctl run: \(message)\n\(usage)\n".utf8))
    return 2
  }

  static func load(_ file: String) throws -> Scenario {
    guard let data = FileManager.default.contents(atPath: file) else { throw ScenarioError("cannot read \(file)") }
    let value: JSONValue
    do {
      value = try Array(data).withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in
        try JSONParser.parse(b)
      }
    } catch {
      throw ScenarioError("\(file) is not valid JSON: \(error)")
    }
    return try Scenario(value, file: file)
  }

  static func run(_ scenario: Scenario, socket: String?) throws -> [String] {
    let daemon = socket == nil ? try Daemon(clock: scenario.clock) : nil
    defer { daemon?.stop() }
    let runner = ScenarioRunner(scenario) { print($0) }
    try runner.connect(socket: socket ?? daemon!.socketPath)
    return runner.run()
  }

  static func writeJUnit(_ outcomes: [Outcome], to path: String) throws {
    func esc(_ s: String) -> String {
      s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
    let failed = outcomes.filter { !$0.failures.isEmpty }.count
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuite name=\"unctl run\" tests=\"\(outcomes.count)\" failures=\"\(failed)\">\n"
    for o in outcomes {
      xml += "  <testcase classname=\"\(esc(o.file))\" name=\"\(esc(o.name))\" time=\"\(String(format: "%.3f", o.seconds))\""
      if o.failures.isEmpty {
        xml += "/>\n"
      } else {
        xml += ">\n    <failure message=\"\(esc(o.failures[0].split(separator: "\n").first.map(String.init) ?? ""))\">"
        xml += esc(o.failures.joined(separator: "\n")) + "</failure>\n  </testcase>\n"
      }
    }
    xml += "</testsuite>\n"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
  }
}
