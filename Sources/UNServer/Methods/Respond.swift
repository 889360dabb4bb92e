import JSONRPC
import UNModel

/// `respond`: the user acts on a delivered notification (rule 7).
enum Respond: Method {
  static let name = "respond"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "identifier", "actionIdentifier", "userText", "authenticated"])
    let app = try call.app(p)
    let identifier = try p.requiredIdentifier("identifier")
    let action = try p.requiredIdentifier("actionIdentifier")
    let userText = try p.string("userText")
    let authenticated = try p.bool("authenticated") ?? false
    let r = try call.model { () throws(UNError) in
      try call.center.respond(
        app: app, identifier: identifier, actionIdentifier: action, userText: userText, authenticated: authenticated)
    }
    return .object([
      "responseId": .string(r.responseId), "delivered": .bool(r.delivered), "queued": .bool(r.queued),
      "toExtension": .bool(r.toExtension),
    ])
  }
}

/// `completeResponse`: the app finished a background action within its deadline.
enum CompleteResponse: Method {
  static let name = "completeResponse"
  static let kind = MethodKind.completion

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "responseId"])
    let app = try call.app(p)
    let id = try p.requiredIdentifier("responseId")
    try call.model { () throws(UNError) in try call.center.completeResponse(app: app, responseId: id) }
    return .object([])
  }
}
