import JSONRPC
import UNProtocol

/// `schedule --id ID ... (--in SECONDS | --now)`: scheduleLocal.
enum ScheduleCommand: Command {
  static let name = "schedule"
  static let flags = ["--repeat", "--now"]
  static let options =
    [
      "--id", "--title", "--subtitle", "--body", "--in", "--category", "--thread", "--badge", "--sound",
      "--summary-argument", "--user-info", "--app",
    ] + fieldOptions.map(\.option)

  /// The content's plain fields (texts and numbers) without an option of their own above,
  /// each as `--<field> VALUE` typed as `ContentShape` describes it: a plain field added to
  /// the table is an option here too.
  static let fieldOptions: [(option: String, field: ContentShape.Field)] = ContentShape.fields.compactMap { f in
    let named = ["title", "subtitle", "body", "categoryIdentifier", "threadIdentifier", "summaryArgument", "badge"]
    switch f.kind {
    case .text, .optionalText, .integer, .optionalInteger, .score:
      return named.contains(f.key) ? nil : ("--" + f.key, f)
    case .sound, .userInfo, .interruptionLevel, .attachments:
      return nil
    }
  }
  static let usage = """
    usage: unctl schedule --id ID (--in SECONDS [--repeat] | --now) [--title T] [--subtitle S]
                          [--body B] [--category C] [--thread T] [--badge N] [--sound NAME]
                          [--summary-argument A] [--user-info JSON] [--app APP]

    Schedules a local notification request (scheduleLocal); an existing request with the
    same identifier is replaced.  Prints the identifier, the next trigger date and any
    warnings.

    options:
      --id ID               the request identifier
      --in SECONDS          a time-interval trigger firing SECONDS from now
      --repeat              repeat every SECONDS (at least 60)
      --now                 no trigger: deliver at once
      --title, --subtitle, --body TEXT
      --category C          the category identifier (its actions are offered)
      --thread T            the thread identifier (grouping)
      --badge N             the app's badge number on delivery
      --sound NAME          "default" or a sound name
      --summary-argument A  the summary argument
      --user-info JSON      a JSON object
      \(fieldOptions.map { "\($0.option) VALUE" }.joined(separator: "\n  "))
                            the content's other fields (Content in proto-docs/openrpc.json)
    \(appOptionHelp)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    _ = try a.operands(0...0, "")
    guard let identifier = a.value("--id") else { throw CLIError.usage("missing --id ID") }
    var content: [JSONMember] = []
    let strings = [
      ("--title", "title"), ("--subtitle", "subtitle"), ("--body", "body"), ("--category", "categoryIdentifier"),
      ("--thread", "threadIdentifier"), ("--sound", "sound"), ("--summary-argument", "summaryArgument"),
    ]
    for (option, field) in strings {
      if let v = a.value(option) { content.append(JSONMember(field, .string(v))) }
    }
    if let badge = try a.int("--badge", min: 0) { content.append(JSONMember("badge", .int(badge))) }
    for (option, field) in fieldOptions {
      switch field.kind {
      case .integer, .optionalInteger:
        if let n = try a.int(option) { content.append(JSONMember(field.key, .int(n))) }
      case .score:
        if let d = try a.double(option) { content.append(JSONMember(field.key, .double(d))) }
      default:
        if let v = a.value(option) { content.append(JSONMember(field.key, .string(v))) }
      }
    }
    if let text = a.value("--user-info") {
      let info = try JSONInput.parse(text, what: "--user-info")
      guard case .object = info else { throw CLIError.usage("--user-info must be a JSON object") }
      content.append(JSONMember("userInfo", info))
    }
    var params: [JSONMember] = [JSONMember("identifier", .string(identifier)), JSONMember("content", .object(content))]
    switch (try a.double("--in"), a.has("--now")) {
    case (let seconds?, false):
      params.append(
        JSONMember(
          "trigger",
          .object([
            "type": .string("timeInterval"), "timeInterval": .double(seconds), "repeats": .bool(a.has("--repeat")),
          ])))
    case (nil, true):
      if a.has("--repeat") { throw CLIError.usage("--repeat needs --in SECONDS") }
    case (_?, true):
      throw CLIError.usage("give either --in SECONDS or --now, not both")
    case (nil, false):
      throw CLIError.usage("missing --in SECONDS or --now")
    }
    let result = try context.call("scheduleLocal", appParams(a.value("--app"), context, params))
    let out = context.output
    out.result(result) {
      let verb = result["replaced"]?.boolValue == true ? "replaced" : "scheduled"
      let next = Output.text(result["nextTriggerDate"])
      out.line("\(verb) \(Output.text(result["identifier"]))" + (next == "-" ? "" : out.dim(", next \(next)")))
      for w in result["warnings"]?.arrayValue ?? [] { out.line(out.yellow("warning: ") + Output.text(w)) }
    }
    return 0
  }
}
