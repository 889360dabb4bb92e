import JSONRPC

/// `reset`: wipes one app's state.
enum Reset: Method {
  static let name = "reset"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app"])
    let app = try call.app(p)
    call.center.reset(app: app)
    call.dispatcher.attachments.sweep(app)
    return .object([])
  }
}
