import JSONRPC

/// `delivered [--grouped] [--limit N] [--after CURSOR]`: listDelivered as a table.
enum DeliveredCommand: Command {
  static let name = "delivered"
  static let flags = ["--grouped"]
  static let options = ["--limit", "--after", "--app"]
  static let usage = """
    usage: unctl delivered [--grouped] [--limit N] [--after CURSOR] [--app APP]

    Lists the app's delivered notifications, newest first: identifier, date, thread,
    title.  With --grouped, the thread groups instead: thread, count, summary.

    options:
      --grouped        one line per thread group, most recent group first
      --limit N        at most N notifications
      --after CURSOR   the page after this cursor ("next" of the previous page)
    \(appOptionHelp)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    _ = try a.operands(0...0, "")
    var params: [JSONMember] = []
    if a.has("--grouped") { params.append(JSONMember("grouped", .bool(true))) }
    if let limit = try a.int("--limit", min: 1) { params.append(JSONMember("limit", .int(limit))) }
    if let after = a.value("--after") { params.append(JSONMember("after", .string(after))) }
    let result = try context.call("listDelivered", appParams(a.value("--app"), context, params))
    let out = context.output
    out.result(result) {
      if let groups = result["groups"]?.arrayValue {
        let rows = groups.map { g in
          [thread(g["threadIdentifier"]), Output.text(g["count"]), Output.text(g["summary"])]
        }
        out.table(["THREAD", "COUNT", "SUMMARY"], rows, maxWidth: 60)
      } else {
        let rows = (result["notifications"]?.arrayValue ?? []).map { n in
          [
            Output.text(n["identifier"]), Output.text(n["date"]),
            thread(n["request"]?["content"]?["threadIdentifier"]), Output.text(n["request"]?["content"]?["title"]),
          ]
        }
        out.table(["IDENTIFIER", "DATE", "THREAD", "TITLE"], rows)
        if let next = result["next"]?.stringValue { out.line(out.dim("more: --after \(next)")) }
      }
    }
    return 0
  }

  static func thread(_ value: JSONValue?) -> String {
    let t = Output.text(value)
    return t.isEmpty ? "-" : t
  }
}
