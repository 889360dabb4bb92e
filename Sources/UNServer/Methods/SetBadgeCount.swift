import JSONRPC
import UNModel

/// `setBadgeCount`.
enum SetBadgeCount: Method {
  static let name = "setBadgeCount"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "count"])
    let app = try call.app(p)
    guard let count = try p.int("count") else { throw RPCError.invalidParams(field: "count", "required") }
    try call.model { () throws(UNError) in try call.center.setBadgeCount(app: app, count) }
    return .object(["count": .int(count)])
  }
}
