import JSONRPC

/// `push FILE.apns [--app APP] [--id ID]`: pushRemote, as `xcrun simctl push`.
enum PushCommand: Command {
  static let name = "push"
  static let options = ["--app", "--id"]
  static let targetKey = "Simulator Target Bundle"
  static let usage = """
    usage: unctl push FILE.apns|- [--app APP] [--id ID]

    Delivers a remote notification (pushRemote) as `xcrun simctl push` does: FILE is an
    APNs payload, a JSON object with "aps" (a comma before a closing } or ] is accepted,
    as on macOS).  A top-level "\(targetKey)" names the app unless --app is given;
    it stays in the payload, as the Simulator keeps it.  Prints the notification's
    identifier, whether it was delivered, and the keys iOS would ignore (warnings).

    options:
      --app APP   the app (default: the file's "\(targetKey)", else $UNCENTER_APP)
      --id ID     the notification identifier (default: one the daemon makes up)

    exit status: 0 ok, 1 JSON-RPC error, 2 usage, 3 cannot connect, 4 bad input file
    (unreadable, not JSON, or not a JSON object: one line on stderr says where)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    let file = try a.operands(1...1, "FILE.apns")[0]
    let members: [JSONMember]
    do {
      members = try APNsFile.read(file)
    } catch {
      throw CLIError.failure(error.message, APNsFile.badInputStatus)
    }
    var app = a.value("--app")
    if let target = members.first(where: { $0.name == targetKey }) {
      guard let name = target.value.stringValue else {
        throw CLIError.failure("\(file): \"\(targetKey)\" must be a string", APNsFile.badInputStatus)
      }
      app = app ?? name
    }
    guard app != nil || context.environmentApp != nil else {
      throw CLIError.usage(
        "no app to push to: pass --app APP, set UNCENTER_APP, or put \"\(targetKey)\": \"APP\" in the payload")
    }
    var params = [JSONMember("payload", .object(members))]
    if let id = a.value("--id") { params.append(JSONMember("identifier", .string(id))) }
    let result = try context.call("pushRemote", appParams(app, context, params))
    let out = context.output
    out.result(result) {
      let how = result["delivered"]?.boolValue == true ? "delivered" : "not delivered"
      out.line("pushed \(Output.text(result["identifier"])) " + out.dim(how))
      for warning in result["warnings"]?.arrayValue ?? [] { out.line(out.dim("warning: ") + Output.text(warning)) }
    }
    return 0
  }
}
