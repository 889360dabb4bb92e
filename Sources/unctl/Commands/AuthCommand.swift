import JSONRPC

/// `auth [status | request [OPTIONS...] | set STATUS | answer grant|deny]`.
enum AuthCommand: Command {
  static let name = "auth"
  static let options = ["--app"]
  static let usage = """
    usage: unctl auth [status] [--app APP]
           unctl auth request [OPTION...] [--app APP]
           unctl auth set STATUS [--app APP]
           unctl auth answer grant|deny [--app APP]

    status (the default) prints the notification settings (getNotificationSettings).
    request asks for authorization (requestAuthorization) with OPTIONs such as alert,
      sound, badge, provisional, criticalAlert (default: alert sound badge); the
      simulated user answers as set by `auth answer`.
    set changes the status as the Settings app does (setAuthorization): notDetermined,
      denied, authorized, provisional, ephemeral.
    answer sets the simulated user's answer to the next prompt.

    options:
    \(appOptionHelp)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    let app = a.value("--app")
    let out = context.output
    let words = a.positionals
    switch words.first {
    case nil, "status":
      _ = try a.operands(0...1, "")
      let result = try context.call("getNotificationSettings", appParams(app, context))
      out.result(result) { out.keyValues(result) }
    case "request":
      let options = words.dropFirst().flatMap { $0.split(separator: ",").map { JSONValue.string(String($0)) } }
      let params = options.isEmpty ? [] : [JSONMember("options", .array(options))]
      let result = try context.call("requestAuthorization", appParams(app, context, params))
      out.result(result) {
        out.line(result["granted"]?.boolValue == true ? out.green("granted") : "not granted")
        if let settings = result["settings"] { out.keyValues(settings) }
      }
    case "set":
      let status = try a.operands(2...2, "STATUS")[1]
      let result = try context.call(
        "setAuthorization", appParams(app, context, [JSONMember("status", .string(status))]))
      out.result(result) { out.keyValues(result) }
    case "answer":
      let answer = try a.operands(2...2, "grant or deny")[1]
      guard answer == "grant" || answer == "deny" else {
        throw CLIError.usage("answer must be grant or deny, got '\(answer)'")
      }
      let result = try context.call(
        "setAuthorization", appParams(app, context, [JSONMember("answer", .string(answer))]))
      out.result(result) { out.line("the next prompt will be answered: \(answer)") }
    case let other?:
      throw CLIError.usage("unknown auth subcommand '\(other)'")
    }
    return 0
  }
}
