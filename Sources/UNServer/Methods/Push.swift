import JSONRPC
import UNModel
import UNProtocol

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
    let content = try p.value("content").map { v throws(RPCError) in try ContentShape.decode(v) }
    guard let content, !content.attachments.isEmpty else { return try complete(call, requestId, content) }
    // Attachments are copied as this connection's client into the pushed app's store,
    // only for the extension the push went to, and the content is kept once they are.
    guard let pending = call.center.pendingModifications[requestId], pending.session == call.client.id else {
      throw ErrorMapping.rpcError(.notFound(kind: "content modification request", identifier: requestId))
    }
    try call.model { () throws(UNError) in try content.validate() }
    let sources = try AttachmentStore.sources(content, app: pending.app)
    return .copy(
      AttachmentJob(app: pending.app, sources: sources) { urls throws(RPCError) in
        var copied = content
        for (i, url) in urls.enumerated() { copied.attachments[i].url = url }
        return try complete(call, requestId, copied)
      })
  }

  private static func complete(_ call: Call, _ requestId: String, _ content: Content?) throws(RPCError) -> Reply {
    let modified = try call.model { () throws(UNError) in
      try call.center.completeContent(session: call.client.id, requestId: requestId, content: content)
    }
    return .object(["delivered": .bool(true), "modified": .bool(modified)])
  }
}
