/// The options every command takes (`--socket`, `--json`, `--human`), before the command
/// or anywhere after it, as people type them: `unctl pending --human`.
struct GlobalOptions {
  /// A global option without the value it needs.
  struct MissingValue: Error {
    var message: String
  }

  var socket: String?
  var json = false
  var human = false

  /// Records `argument` when it is a global option, taking its value from the front of
  /// `rest` when it needs one; false when it is not a global option.
  mutating func take(_ argument: String, from rest: inout ArraySlice<String>) throws(MissingValue) -> Bool {
    switch argument {
    case "--socket":
      guard let path = rest.popFirst() else { throw MissingValue(message: "--socket needs a path") }
      socket = path
    case _ where argument.hasPrefix("--socket="):
      socket = String(argument.dropFirst("--socket=".count))
    case "--json":
      json = true
    case "--human":
      human = true
    default:
      return false
    }
    return true
  }

  /// The command's arguments with the global options taken out, the rest in order.  The
  /// value after one of the command's own `options` stays with it (`--text --json` sends
  /// the text "--json"), and nothing after `--` is looked at.
  mutating func lift(_ arguments: ArraySlice<String>, keepingValuesOf options: [String]) throws(MissingValue)
    -> [String]
  {
    var rest = arguments
    var kept: [String] = []
    while let argument = rest.popFirst() {
      if argument == "--" {
        kept.append(argument)
        kept += rest
        break
      }
      if try take(argument, from: &rest) { continue }
      kept.append(argument)
      if options.contains(argument), let value = rest.popFirst() { kept.append(value) }
    }
    return kept
  }
}
