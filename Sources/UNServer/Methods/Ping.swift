import JSONRPC

/// `ping`: liveness, and the daemon's idea of now.
enum Ping: Method {
  static let name = "ping"

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    _ = try call.params(allowed: [])
    var o: [UInt8] = []
    o.reserveCapacity(36)
    WireBytes.key(#"{"now":"#, &o)
    WireBytes.date(call.center.clock.now, &o, cache: call.dates)
    o.append(UInt8(ascii: "}"))
    return .bytes(o)
  }
}
