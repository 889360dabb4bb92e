import JSONRPC

/// `wait --event TYPE ... --timeout S`: waitFor, for shell-scripted tests.
enum WaitCommand: Command {
  static let name = "wait"
  static let options = ["--event", "--app", "--id", "--field", "--since", "--timeout"]
  static let usage = """
    usage: unctl wait --event TYPE [--app APP] [--id IDENTIFIER] [--field KEY=VALUE]...
                      [--since N] --timeout S

    Waits for the first event matching the filter (waitFor): one already recorded
    (since event number N; default all kept) or one arriving within S real seconds.
    Prints the event and exits 0, or exits 1 with `no TYPE event within S s`.
    TYPE is one of scheduled, replaced, fired, presented, delivered, dropped,
    responded, expired, removed, authorization.  Use it in scripts instead of sleeps:
      unctl wait --event delivered --id hello --timeout 5

    options:
      --event TYPE        the event type (required)
      --id IDENTIFIER     the notification identifier
      --field KEY=VALUE   another event field; VALUE is JSON when it parses (true, 3,
                          "x"), a string otherwise (repeatable)
      --since N           only events after event number N (an event's "seq")
      --timeout S         how long to wait, in real seconds (required)
    \(appOptionHelp)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    _ = try a.operands(0...0, "")
    guard let type = a.value("--event") else { throw CLIError.usage("missing --event TYPE") }
    guard let timeout = try a.double("--timeout") else { throw CLIError.usage("missing --timeout S") }
    guard timeout >= 0 else { throw CLIError.usage("--timeout must be ≥ 0") }
    var filter: [JSONMember] = [JSONMember("type", .string(type))]
    if let id = a.value("--id") { filter.append(JSONMember("identifier", .string(id))) }
    for field in a.all("--field") {
      guard let eq = field.firstIndex(of: "="), eq != field.startIndex else {
        throw CLIError.usage("--field needs KEY=VALUE, got '\(field)'")
      }
      let text = String(field[field.index(after: eq)...])
      let value = (try? JSONInput.parse(text, what: "")) ?? .string(text)
      filter.append(JSONMember(String(field[..<eq]), value))
    }
    var params: [JSONMember] = [JSONMember("event", .object(filter)), JSONMember("timeout", .double(timeout))]
    if let since = try a.int("--since", min: 0) { params.append(JSONMember("since", .int(since))) }
    let result = try context.call("waitFor", appParams(a.value("--app"), context, params), timeout: timeout + 30)
    guard let event = result["event"], event != .null else {
      let seconds = Output.text(.double(timeout))
      throw CLIError.failure("no \(type) event within \(seconds) s", 1)
    }
    let out = context.output
    out.result(event) { out.line(EventLine.text(event, out)) }
    return 0
  }
}
