import JSONRPC
import UNModel

/// `requestAuthorization`: the prompt, answered by the simulated user (rule 9).
enum RequestAuthorization: Method {
  static let name = "requestAuthorization"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "options"])
    let app = try call.app(p)
    let options = try p.enumArray("options", AuthorizationOption.self) ?? [.alert, .sound, .badge]
    let (granted, settings) = call.center.requestAuthorization(app: app, options: options)
    return .object(["granted": .bool(granted), "settings": ModelEncoding.settings(settings)])
  }
}

/// `getNotificationSettings`.
enum GetNotificationSettings: Method {
  static let name = "getNotificationSettings"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app"])
    return .value(ModelEncoding.settings(call.center.settings(app: try call.app(p))))
  }
}

/// `setAuthorization`: the user changing Settings (`status`) and/or the answer the
/// simulated user gives to the next prompt (`answer`: grant or deny).
enum SetAuthorization: Method {
  static let name = "setAuthorization"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "status", "answer"])
    let app = try call.app(p)
    let status = try p.enumValue("status", AuthorizationStatus.self)
    var answer: Bool?
    switch try p.string("answer") {
    case nil: answer = nil
    case "grant": answer = true
    case "deny": answer = false
    case let other?: throw RPCError.invalidParams(field: "answer", "'\(other)' is not one of 'grant', 'deny'")
    }
    return .value(ModelEncoding.settings(call.center.setAuthorization(app: app, status: status, answer: answer)))
  }
}
