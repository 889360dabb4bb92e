import JSONRPC
import UNModel

/// `pushRemote`: an APNs payload delivered at once, as `xcrun simctl push` does; the
/// keys iOS would ignore are listed in `warnings`.
enum PushRemote: Method {
  static let name = "pushRemote"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "payload", "identifier"])
    let app = try call.app(p)
    guard let payload = p.value("payload") else { throw RPCError.invalidParams(field: "payload", "required") }
    let push = try RemotePayload.map(payload)
    let identifier = try p.identifier("identifier")
    let r = try call.model { () throws(UNError) in try call.center.pushRemote(app: app, push, identifier: identifier) }
    return .object([
      "identifier": .string(r.identifier), "delivered": .bool(r.delivered),
      "warnings": .array(push.warnings.map { .string($0) }),
    ])
  }
}

/// `completeContent`: a service extension's modified content (`contentHandler`).
enum CompleteContent: Method {
  static let name = "completeContent"
  static let kind = MethodKind.completion

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["requestId", "content"])
    let requestId = try p.requiredIdentifier("requestId")
    var content = try p.value("content").map { v throws(RPCError) in try ContentShape.decode(v) }
    if let c = content, let app = call.client.hello?.appId {
      content = try AttachmentStore.store(c, app: app, call.configuration)
    }
    let modified = try call.model { () throws(UNError) in
      try call.center.completeContent(session: call.client.id, requestId: requestId, content: content)
    }
    return .object(["delivered": .bool(true), "modified": .bool(modified)])
  }
}
