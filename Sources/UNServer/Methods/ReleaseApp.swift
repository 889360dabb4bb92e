import JSONRPC
import UNModel
import UNProtocol

/// `releaseApp`: forgets which uid owns an app, keeping everything it has: the next
/// change (or `hello`) by a uid other than root and the daemon's own claims it again.
/// For root, the daemon's uid, or the owner itself (an app moving to another account).
enum ReleaseApp: Method {
  static let name = "releaseApp"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app"])
    let app = try p.requiredIdentifier("app")
    let uid = call.client.peer?.uid ?? call.configuration.daemonUID
    let previous = call.center.owner(of: app)
    if let previous, uid != previous, uid != 0, uid != call.configuration.daemonUID {
      throw ErrorMapping.rpcError(.accessDenied(app: app))
    }
    if previous != nil { call.center.release(app: app) }
    return .object(["released": .bool(previous != nil), "owner": previous.map { .int(Int($0)) } ?? .null])
  }
}
