import Foundation

/// The command line of `unctl run`, parsed.  Value-taking options accept `--opt VALUE`
/// and `--opt=VALUE`; `-j` also `-jN`, as make and ninja spell it.
struct RunOptions: Sendable {
  /// Every option that takes a value: `Main` lifts the global options out of the
  /// arguments without taking these values (`ScenarioCommand.options` lists them).
  static let valueOptions = ["--junit", "--html", "-j", "--jobs", "--shard", "--timeout"]
  /// The per-scenario limit when `--timeout` is not given: far above any scenario's own
  /// waits (`within` defaults to 2 s a step), low enough that a hung one ends the job.
  static let defaultTimeout: Double = 120

  var files: [String] = []
  var junit: String?
  var html: String?
  /// nil: not given (the number of CPUs, or 1 with `--socket`).
  var jobs: Int?
  var shard: Shard?
  var list = false
  var timeout = RunOptions.defaultTimeout
  var help = false

  init(_ arguments: [String]) throws(RunUsageError) {
    var args = arguments[...]
    while let arg = args.popFirst() {
      if arg == "--" {
        files += args
        break
      }
      if arg == "-h" || arg == "--help" {
        help = true
        return
      }
      guard arg.hasPrefix("-"), arg != "-" else {
        files.append(arg)
        continue
      }
      var name = arg
      var inline: String?
      if let eq = arg.firstIndex(of: "=") {
        name = String(arg[..<eq])
        inline = String(arg[arg.index(after: eq)...])
      } else if arg.hasPrefix("-j"), arg.count > 2, !arg.hasPrefix("--") {
        name = "-j"
        inline = String(arg.dropFirst(2))
      }
      if name == "--list" {
        guard inline == nil else { throw RunUsageError("--list takes no value") }
        list = true
        continue
      }
      guard Self.valueOptions.contains(name) else { throw RunUsageError("unknown option '\(arg)'") }
      guard let value = inline ?? args.popFirst() else { throw RunUsageError("\(name) needs a value") }
      try take(name, value)
    }
  }

  private mutating func take(_ name: String, _ value: String) throws(RunUsageError) {
    switch name {
    case "--junit":
      junit = value
    case "--html":
      html = value
    case "-j", "--jobs":
      guard let n = Int(value), n >= 1 else { throw RunUsageError("\(name) needs a whole number ≥ 1, got '\(value)'") }
      jobs = n
    case "--shard":
      shard = try Shard(parsing: value)
    default:  // --timeout
      guard let s = Double(value), s.isFinite, s > 0 else {
        throw RunUsageError("--timeout needs a number of seconds > 0, got '\(value)'")
      }
      timeout = s
    }
  }

  /// The files to run: the shard's when `--shard` is given, else all, in the order given.
  var selectedFiles: [String] { shard.map { $0.select(files) } ?? files }
}

/// A mistake on the `unctl run` command line: exit status 2 with the usage.
struct RunUsageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
