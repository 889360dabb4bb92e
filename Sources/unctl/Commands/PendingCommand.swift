import JSONRPC

/// `pending [--limit N] [--after CURSOR]`: listPending as a table.
enum PendingCommand: Command {
  static let name = "pending"
  static let options = ["--limit", "--after", "--app"]
  static let usage = """
    usage: unctl pending [--limit N] [--after CURSOR] [--app APP]

    Lists the app's pending notification requests by next trigger date: identifier,
    next trigger date, trigger, title.  With --limit, the last line names the cursor
    for the next page (--after).

    options:
      --limit N        at most N requests
      --after CURSOR   the page after this cursor ("next" of the previous page)
    \(appOptionHelp)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    _ = try a.operands(0...0, "")
    var params: [JSONMember] = []
    if let limit = try a.int("--limit", min: 1) { params.append(JSONMember("limit", .int(limit))) }
    if let after = a.value("--after") { params.append(JSONMember("after", .string(after))) }
    let result = try context.call("listPending", appParams(a.value("--app"), context, params))
    let out = context.output
    out.result(result) {
      let rows = (result["requests"]?.arrayValue ?? []).map { r in
        [
          Output.text(r["identifier"]), Output.text(r["nextTriggerDate"]), describe(trigger: r["trigger"]),
          Output.text(r["content"]?["title"]),
        ]
      }
      out.table(["IDENTIFIER", "NEXT TRIGGER DATE", "TRIGGER", "TITLE"], rows)
      if let next = result["next"]?.stringValue { out.line(out.dim("more: --after \(next)")) }
    }
    return 0
  }

  /// `in 60s`, `every 60s`, `push`, or `-` (none).
  static func describe(trigger: JSONValue?) -> String {
    guard let t = trigger, t != .null else { return "-" }
    switch t["type"]?.stringValue {
    case "timeInterval"?:
      let s = Output.text(t["timeInterval"])
      return t["repeats"]?.boolValue == true ? "every \(s)s" : "in \(s)s"
    case let type?: return type
    case nil: return Output.compact(t)
    }
  }
}
