import JSONRPC

/// `badge [N]`: getBadgeCount, or setBadgeCount with N.
enum BadgeCommand: Command {
  static let name = "badge"
  static let options = ["--app"]
  static let usage = """
    usage: unctl badge [N] [--app APP]

    Prints the app's badge count, or sets it to N.

    options:
    \(appOptionHelp)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    let operands = try a.operands(0...1, "")
    let result: JSONValue
    if let text = operands.first {
      guard let n = Int(text), n >= 0 else { throw CLIError.usage("N must be an integer ≥ 0, got '\(text)'") }
      result = try context.call("setBadgeCount", appParams(a.value("--app"), context, [JSONMember("count", .int(n))]))
    } else {
      result = try context.call("getBadgeCount", appParams(a.value("--app"), context))
    }
    context.output.result(result) { context.output.line(Output.text(result["count"])) }
    return 0
  }
}
