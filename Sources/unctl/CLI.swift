import Foundation
import JSONRPC
import UNCenterClient

/// Why a command stopped; `Main` turns it into a message and an exit status.
enum CLIError: Error {
  /// `-h`/`--help` was given: print the command's usage, exit 0.
  case help
  /// Unknown option, missing value, bad argument: exit 2 with the usage.
  case usage(String)
  /// The daemon answered with an error: exit 1.
  case rpc(RPCError)
  /// The socket could not be reached or the connection broke: exit 3.
  case connect(String)
  /// Anything else, with its exit status.
  case failure(String, Int32)
}

/// One subcommand: its name, usage text, options and body.
protocol Command {
  static var name: String { get }
  static var usage: String { get }
  /// Options without a value (`--grouped`).
  static var flags: [String] { get }
  /// Options with one value (`--app APP` or `--app=APP`): `Main` must not take that value
  /// for a global option when it lifts those out of the command's arguments.
  static var options: [String] { get }
  static func run(_ arguments: [String], _ context: Context) throws -> Int32
}

extension Command {
  static var flags: [String] { [] }
  static var options: [String] { [] }
}

/// What every command gets: where the daemon is, how to write, the environment.
struct Context {
  var socketPath: String
  var output: Output
  var environment: [String: String]

  /// `UNCENTER_APP`, when set and not empty.
  var environmentApp: String? {
    guard let app = environment["UNCENTER_APP"], !app.isEmpty else { return nil }
    return app
  }

  func connect() throws -> RPCConnection {
    do {
      return try RPCConnection(path: socketPath)
    } catch {
      throw CLIError.connect(error.description)
    }
  }

  /// One request; the result, or `CLIError.rpc`/`.connect`.
  func call(
    _ method: String, _ params: JSONValue?, on connection: RPCConnection? = nil, timeout: Double = 30
  ) throws -> JSONValue {
    let conn = try connection ?? connect()
    let answer: Result<JSONValue, RPCError>
    do {
      answer = try conn.call(method, params, timeout: timeout)
    } catch {
      throw CLIError.connect(error.description)
    }
    switch answer {
    case .success(let value): return value
    case .failure(let error): throw CLIError.rpc(error)
    }
  }
}

/// Parsed options and operands of one command.
struct ParsedArguments {
  var flags: Set<String> = []
  var values: [String: [String]] = [:]
  var positionals: [String] = []

  func has(_ flag: String) -> Bool { flags.contains(flag) }
  func value(_ name: String) -> String? { values[name]?.last }
  func all(_ name: String) -> [String] { values[name] ?? [] }

  func int(_ name: String, min: Int = Int.min) throws -> Int? {
    guard let text = value(name) else { return nil }
    guard let n = Int(text), n >= min else {
      throw CLIError.usage("\(name) needs an integer\(min == 0 ? " ≥ 0" : min == 1 ? " ≥ 1" : ""), got '\(text)'")
    }
    return n
  }

  func double(_ name: String) throws -> Double? {
    guard let text = value(name) else { return nil }
    guard let d = Double(text), d.isFinite else { throw CLIError.usage("\(name) needs a number, got '\(text)'") }
    return d
  }

  /// Exactly `range` operands, else a usage error.
  func operands(_ range: ClosedRange<Int>, _ what: String) throws -> [String] {
    if positionals.count < range.lowerBound { throw CLIError.usage("missing \(what)") }
    if positionals.count > range.upperBound {
      throw CLIError.usage("unexpected argument '\(positionals[range.upperBound])'")
    }
    return positionals
  }

  /// Parses `arguments` against `command`'s flags and options.
  static func parse(_ arguments: [String], for command: any Command.Type) throws -> ParsedArguments {
    try parse(arguments, flags: command.flags, options: command.options)
  }

  /// Parses `arguments` against the known `flags` (no value) and `options` (one value,
  /// `--name VALUE` or `--name=VALUE`).  `--` ends the options; `-` and negative numbers
  /// are operands.  `-h`/`--help` throws `.help`.
  static func parse(_ arguments: [String], flags: [String] = [], options: [String] = []) throws -> ParsedArguments {
    var parsed = ParsedArguments()
    var rest = arguments[...]
    while let arg = rest.popFirst() {
      if arg == "--" {
        parsed.positionals += rest
        break
      }
      if arg == "-h" || arg == "--help" { throw CLIError.help }
      guard arg.hasPrefix("-"), arg != "-", Double(arg) == nil else {
        parsed.positionals.append(arg)
        continue
      }
      var name = arg
      var inline: String?
      if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
        name = String(arg[..<eq])
        inline = String(arg[arg.index(after: eq)...])
      }
      if flags.contains(name) {
        if inline != nil { throw CLIError.usage("\(name) takes no value") }
        parsed.flags.insert(name)
      } else if options.contains(name) {
        guard let value = inline ?? rest.popFirst() else { throw CLIError.usage("\(name) needs a value") }
        parsed.values[name, default: []].append(value)
      } else {
        throw CLIError.usage("unknown option '\(arg)'")
      }
    }
    return parsed
  }
}

/// JSON text from an argument, a file or standard input (`-`).
enum JSONInput {
  static func parse(_ text: String, what: String) throws -> JSONValue {
    do {
      return try Array(text.utf8).withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in
        try JSONParser.parse(b)
      }
    } catch {
      throw CLIError.usage("\(what) is not valid JSON: \(error)")
    }
  }

  /// The contents of FILE, or standard input for `-`.
  static func read(_ file: String) throws -> String {
    if file == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
    guard let handle = FileHandle(forReadingAtPath: file) else { throw CLIError.usage("cannot read \(file)") }
    defer { try? handle.close() }
    return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
  }

  static func file(_ file: String) throws -> JSONValue {
    try parse(try read(file), what: file == "-" ? "standard input" : file)
  }
}

extension JSONValue {
  /// This object with a member set (replaced if present, appended otherwise).
  func setting(_ name: String, _ value: JSONValue?) -> JSONValue {
    guard case .object(var members) = self, let value else { return self }
    if let i = members.firstIndex(where: { $0.name == name }) {
      members[i].value = value
    } else {
      members.append(JSONMember(name, value))
    }
    return .object(members)
  }
}

/// Params with `app` first when one is known (`--app`, else `UNCENTER_APP`).
func appParams(_ app: String?, _ context: Context, _ members: [JSONMember] = []) -> JSONValue {
  var all: [JSONMember] = []
  if let app = app ?? context.environmentApp { all.append(JSONMember("app", .string(app))) }
  return .object(all + members)
}

/// The text shared by the usages of app-scoped commands.
let appOptionHelp = """
    --app APP        the app (default: $UNCENTER_APP; unctl does not say hello, so
                     app-scoped commands need one of the two)
  """
