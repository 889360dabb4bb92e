import Foundation
import JSONRPC

/// `unctl run SCENARIO...`: each scenario against a fresh private daemon (or, with
/// `--socket`, against a running one, after `reset` of its apps), several at a time.
/// Prints a block per scenario in file order, then `N passed, N failed`; exit status 1
/// when any failed.
enum RunCommand {
  static let usage = """
    usage: unctl [--socket PATH] run [OPTIONS] SCENARIO.json...

    Runs scenario files (their format: README.md, "Scenarios").  Without --socket each
    scenario gets its own uncenterd (manual clock at the scenario's "clock", temporary
    socket); with --socket they run against that daemon, resetting their apps first.
    Output: a block per scenario (a line per step), in the order the files were given,
    then "N passed, N failed"; on a terminal also a live progress line.

    options:
      -j N, -jN, --jobs N   run N scenarios at a time (default: the number of CPUs, or 1
                            with --socket, where N > 1 needs scenarios whose apps are
                            disjoint; they still share that daemon's clock)
      --shard I/N           run only shard I of N (1 ≤ I ≤ N): a file belongs to shard
                            FNV-1a(its path relative to the working directory) mod N + 1,
                            so N CI jobs given the same files run each exactly once
      --list                print the files that would run (after --shard) and exit
      --timeout SECONDS     fail a scenario that runs longer (its private daemon is
                            killed; with --socket the scenario is abandoned)
                            (default \(Int(RunOptions.defaultTimeout)))
      --junit FILE          write a JUnit XML report (one testcase per scenario)
      --html FILE           write a self-contained HTML report: per scenario the steps
                            on the manual clock's timeline, the notifications as a phone
                            shows them, the callbacks, the user's responses, and for a
                            failure expected and actual side by side
      -h, --help            this help

    A scenario whose daemon dies fails with the daemon's exit and the last lines of its
    log; the others go on.  Exit status: 0 all passed, 1 a scenario failed, 2 usage.
    """

  static func main(_ arguments: [String], socket: String?) -> Int32 {
    let options: RunOptions
    do {
      options = try RunOptions(arguments)
    } catch {
      return usageError(error.description)
    }
    if options.help {
      print(usage)
      return 0
    }
    guard !options.files.isEmpty else { return usageError("no scenario files") }
    let files = options.selectedFiles
    if options.list {
      for file in files { print(file) }
      return 0
    }
    let jobs = options.jobs ?? (socket == nil ? ProcessInfo.processInfo.activeProcessorCount : 1)
    if socket != nil, jobs > 1, let clash = sharedApp(files) {
      return usageError("-j \(jobs) with --socket needs scenarios whose apps are disjoint: \(clash)")
    }
    let work = files.map {
      ScenarioJob(file: $0, socket: socket, recording: options.html != nil, timeout: options.timeout)
    }
    let console = Console(total: work.count, live: isatty(1) == 1)
    let records = ScenarioPool(jobs: jobs).run(work, progress: console.progress) { _, record in
      console.block(record.output)
    }
    console.finish()
    let failed = records.filter { !$0.passed }.count
    print("\(records.count - failed) passed, \(failed) failed")
    var status: Int32 = failed == 0 ? 0 : 1
    if let junit = options.junit {
      status = write(junit, "--junit") { try JUnitReport.write(records, shard: options.shard, to: junit) } ?? status
    }
    if let html = options.html {
      status = write(html, "--html") { try HTMLReport(records: records).write(to: html) } ?? status
    }
    return status
  }

  /// Runs `body`; on failure says why on stderr and returns 1.
  private static func write(_ path: String, _ option: String, _ body: () throws -> Void) -> Int32? {
    do {
      try body()
      return nil
    } catch {
      FileHandle.standardError.write(
        Data("unctl run: cannot write \(option) \(path): \(error.localizedDescription)\n".utf8))
      return 1
    }
  }

  /// With one daemon for all, scenarios may run together only if no app is in two of
  /// them (each resets its apps); nil when disjoint, else which app and where.
  static func sharedApp(_ files: [String]) -> String? {
    var owner: [String: String] = [:]
    for file in files {
      guard let scenario = try? load(file) else { continue }
      var apps = Set(scenario.apps.compactMap(\.appId))
      for step in scenario.steps { if let id = step["params"]?["app"]?.stringValue { apps.insert(id) } }
      for app in apps.sorted() {
        if let other = owner[app] { return "app \(app) is in both \(other) and \(file)" }
        owner[app] = file
      }
    }
    return nil
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
}
