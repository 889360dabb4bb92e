import JSONRPC

/// `categories [get]` / `categories set FILE|-`: getCategories / registerCategories.
enum CategoriesCommand: Command {
  static let name = "categories"
  static let options = ["--app"]
  static let usage = """
    usage: unctl categories [get] [--app APP]
           unctl categories set FILE|- [--app APP]

    get (the default) lists the app's categories: identifier, actions, options.
    set replaces the app's whole category set with FILE (- for standard input): a JSON
    array of categories, or an object with a "categories" array, e.g.
      [{"identifier": "message", "actions": [{"identifier": "reply", "title": "Reply",
        "options": [], "textInput": {"buttonTitle": "Send", "placeholder": ""}}],
        "options": ["customDismissAction"]}]

    options:
    \(appOptionHelp)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    let app = a.value("--app")
    let out = context.output
    switch a.positionals.first {
    case nil, "get":
      _ = try a.operands(0...1, "")
      let result = try context.call("getCategories", appParams(app, context))
      out.result(result) {
        let rows = (result["categories"]?.arrayValue ?? []).map { c in
          [
            Output.text(c["identifier"]),
            list(c["actions"]?.arrayValue?.map { Output.text($0["identifier"]) }),
            list(c["options"]?.arrayValue?.map { Output.text($0) }),
          ]
        }
        out.table(["IDENTIFIER", "ACTIONS", "OPTIONS"], rows, maxWidth: 60)
      }
    case "set":
      let operands = try a.operands(2...2, "FILE")
      let value = try JSONInput.file(operands[1])
      let categories: JSONValue
      switch value {
      case .array: categories = value
      case .object where value["categories"]?.arrayValue != nil: categories = value["categories"]!
      default:
        throw CLIError.usage("\(operands[1]): expected a JSON array of categories or {\"categories\": [...]}")
      }
      let result = try context.call(
        "registerCategories", appParams(app, context, [JSONMember("categories", categories)]))
      out.result(result) { out.line("registered \(Output.text(result["count"])) categories") }
    case let other?:
      throw CLIError.usage("unknown categories subcommand '\(other)'")
    }
    return 0
  }

  static func list(_ items: [String]?) -> String {
    guard let items, !items.isEmpty else { return "-" }
    return items.joined(separator: ",")
  }
}
