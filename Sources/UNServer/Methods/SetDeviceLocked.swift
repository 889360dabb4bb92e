import JSONRPC

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
