import JSONRPC

/// `setForeground`: the app moves to the foreground or the background.
enum SetForeground: Method {
  static let name = "setForeground"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "foreground"])
    let app = try call.app(p)
    guard let foreground = try p.bool("foreground") else {
      throw RPCError.invalidParams(field: "foreground", "required")
    }
    call.center.setForeground(app: app, foreground)
    return .object(["foreground": .bool(call.center.isForeground(app))])
  }
}
