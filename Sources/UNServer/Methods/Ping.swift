import JSONRPC

/// `ping`: liveness, and the daemon's idea of now.
enum Ping: Method {
  static let name = "ping"

  static func handle(_ call: Call) throws(RPCError) -> JSONValue {
    _ = try call.params(allowed: [])
    return .object(["now": ModelEncoding.date(call.center.clock.now)])
  }
}
