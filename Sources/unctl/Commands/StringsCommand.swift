import JSONRPC

/// `strings [get]` / `strings set FILE...`: getLocalizedStrings / registerLocalizedStrings.
enum StringsCommand: Command {
  static let name = "strings"
  static let options = ["--app", "--language"]
  static let usage = """
    usage: unctl strings [get] [--app APP]
           unctl strings set FILE... [--language LANG] [--app APP]

    The app's localized strings, used for the loc-key, title-loc-key and subtitle-loc-key
    of its remote notifications (registerLocalizedStrings: the whole table is replaced).
    get (the default) lists them.  set loads each FILE (- for standard input), later
    files overriding earlier ones:
      Localizable.strings   "KEY" = "%@ sent you a message";   (UTF-8 or UTF-16)
      Localizable.xcstrings Xcode's string catalog; --language picks the language
                            (default: the catalog's sourceLanguage)
      FILE.json             {"KEY": "format", ...} or {"strings": {...}}

    options:
      --language LANG  the catalog language to load (.xcstrings only)
    \(appOptionHelp)

    exit status: 0 ok, 1 JSON-RPC error, 2 usage, 3 cannot connect, 4 bad input file
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    let app = a.value("--app")
    let out = context.output
    switch a.positionals.first {
    case nil, "get":
      _ = try a.operands(0...1, "")
      let result = try context.call("getLocalizedStrings", appParams(app, context))
      out.result(result) {
        let rows = (result["strings"]?.objectValue ?? []).map { [$0.name, Output.text($0.value)] }
        out.table(["KEY", "FORMAT"], rows, maxWidth: 60)
      }
    case "set":
      guard a.positionals.count >= 2 else { throw CLIError.usage("missing FILE") }
      var table: [JSONMember] = []
      for file in a.positionals.dropFirst() {
        let pairs: [(String, String)]
        do {
          pairs = try StringsFile.load(file, language: a.value("--language"))
        } catch {
          throw CLIError.failure(error.message, APNsFile.badInputStatus)
        }
        for (key, format) in pairs {
          table.removeAll { $0.name == key }
          table.append(JSONMember(key, .string(format)))
        }
      }
      let result = try context.call(
        "registerLocalizedStrings", appParams(app, context, [JSONMember("strings", .object(table))]))
      out.result(result) { out.line("registered \(Output.text(result["count"])) strings") }
    case let other?:
      throw CLIError.usage("unknown strings subcommand '\(other)'")
    }
    return 0
  }
}
