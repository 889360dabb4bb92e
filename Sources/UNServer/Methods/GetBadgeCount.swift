import JSONRPC

/// `getBadgeCount`: 0 until set.
enum GetBadgeCount: Method {
  static let name = "getBadgeCount"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app"])
    return .object(["count": .int(call.center.badgeCount(app: try call.app(p)))])
  }
}
