import JSONRPC

/// `respond ID ACTION` (or `--default` / `--dismiss`): the user acts on a notification.
enum RespondCommand: Command {
  static let name = "respond"
  static let flags = ["--authenticated", "--default", "--dismiss"]
  static let options = ["--text", "--app"]
  static let defaultAction = "com.apple.UNNotificationDefaultActionIdentifier"
  static let dismissAction = "com.apple.UNNotificationDismissActionIdentifier"
  static let usage = """
    usage: unctl respond ID ACTION [--text T] [--authenticated] [--app APP]
           unctl respond ID --default | --dismiss [--app APP]

    The simulated user acts on the delivered notification ID: taps the action ACTION,
    opens the notification (--default) or dismisses it (--dismiss).  The app gets
    `receive`.  Prints the response id and whether it was delivered to a connected app
    or queued.

    options:
      --text T          the text typed into a text-input action
      --authenticated   the user unlocked the device for the action
      --default         ACTION is \(defaultAction)
      --dismiss         ACTION is \(dismissAction)
    \(appOptionHelp)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    let action: String
    let identifier: String
    switch (a.has("--default"), a.has("--dismiss")) {
    case (true, true):
      throw CLIError.usage("give --default or --dismiss, not both")
    case (true, false), (false, true):
      identifier = try a.operands(1...1, "ID")[0]
      action = a.has("--default") ? defaultAction : dismissAction
    case (false, false):
      let operands = try a.operands(2...2, a.positionals.isEmpty ? "ID" : "ACTION (or --default / --dismiss)")
      (identifier, action) = (operands[0], operands[1])
    }
    var params = [JSONMember("identifier", .string(identifier)), JSONMember("actionIdentifier", .string(action))]
    if let text = a.value("--text") { params.append(JSONMember("userText", .string(text))) }
    if a.has("--authenticated") { params.append(JSONMember("authenticated", .bool(true))) }
    let result = try context.call("respond", appParams(a.value("--app"), context, params))
    let out = context.output
    out.result(result) {
      let how =
        result["delivered"]?.boolValue == true
        ? "delivered" : result["queued"]?.boolValue == true ? "queued" : "not delivered"
      out.line("response \(Output.text(result["responseId"])) " + out.dim(how))
    }
    return 0
  }
}
