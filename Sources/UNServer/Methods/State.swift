import JSONRPC
import UNModel

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

/// `setDeviceLocked`: the simulated device's lock state (for `authenticationRequired`).
enum SetDeviceLocked: Method {
  static let name = "setDeviceLocked"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["locked"])
    guard let locked = try p.bool("locked") else { throw RPCError.invalidParams(field: "locked", "required") }
    call.center.deviceLocked = locked
    return .object(["locked": .bool(locked)])
  }
}

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

/// `getBadgeCount`: 0 until set.
enum GetBadgeCount: Method {
  static let name = "getBadgeCount"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app"])
    return .object(["count": .int(call.center.badgeCount(app: try call.app(p)))])
  }
}

/// `reset`: wipes one app's state.
enum Reset: Method {
  static let name = "reset"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app"])
    let app = try call.app(p)
    call.center.reset(app: app)
    AttachmentStore.removeApp(app, call.configuration)
    return .object([])
  }
}
