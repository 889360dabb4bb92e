import JSONRPC

/// `removePending`: cancels pending requests (all when `identifiers` is absent).
enum RemovePending: Method {
  static let name = "removePending"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "identifiers"])
    let app = try call.app(p)
    let ids = try p.identifierArray("identifiers")
    return .object(["removed": .int(call.center.removePending(app: app, identifiers: ids))])
  }
}

/// `removeDelivered`: clears delivered notifications (all when `identifiers` is absent).
enum RemoveDelivered: Method {
  static let name = "removeDelivered"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "identifiers"])
    let app = try call.app(p)
    let ids = try p.identifierArray("identifiers")
    return .object(["removed": .int(call.center.removeDelivered(app: app, identifiers: ids))])
  }
}
