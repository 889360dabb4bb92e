import JSONRPC

/// `push FILE.apns [--app APP] [--id ID]`: pushRemote, as `xcrun simctl push`.
enum PushCommand: Command {
  static let name = "push"
  static let options = ["--app", "--id"]
  static let targetKey = "Simulator Target Bundle"
  static let usage = """
    usage: unctl push FILE.apns|- [--app APP] [--id ID]

    Delivers a remote notification (pushRemote) as `xcrun simctl push` does: FILE is an
    APNs payload, a JSON object with "aps".  A top-level "\(targetKey)" names the
    app (unless --app is given) and is removed from the payload.  Prints the
    notification's identifier and whether it was delivered.

    options:
      --app APP   the app (default: the file's "\(targetKey)", else $UNCENTER_APP)
      --id ID     the notification identifier (default: one the daemon makes up)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    let file = try a.operands(1...1, "FILE.apns")[0]
    let value = try JSONInput.file(file)
    guard case .object(var members) = value else {
      throw CLIError.usage("\(file): an APNs payload must be a JSON object, got \(value.typeName)")
    }
    var app = a.value("--app")
    if let i = members.firstIndex(where: { $0.name == targetKey }) {
      guard let target = members[i].value.stringValue else { throw CLIError.usage("\(file): \"\(targetKey)\" must be a string") }
      members.remove(at: i)
      app = app ?? target
    }
    var params = [JSONMember("payload", .object(members))]
    if let id = a.value("--id") { params.append(JSONMember("identifier", .string(id))) }
    let result = try context.call("pushRemote", appParams(app, context, params))
    let out = context.output
    out.result(result) {
      let how = result["delivered"]?.boolValue == true ? "delivered" : "not delivered"
      out.line("pushed \(Output.text(result["identifier"])) " + out.dim(how))
    }
    return 0
  }
}
