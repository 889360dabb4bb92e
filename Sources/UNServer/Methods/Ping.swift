import JSONRPC
import UNProtocol

/// `ping`: liveness, and the daemon's idea of now.
enum Ping: Method {
  static let name = "ping"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    _ = try call.params(allowed: [])
    let now = call.center.clock.now
    // Pings in the same millisecond share one result (a retain instead of an array).
    let dates = call.dates
    if let (instant, bytes) = dates.pingResult, instant == now { return .bytes(bytes) }
    var o: [UInt8] = []
    o.reserveCapacity(36)
    WireBytes.key(#"{"now":"#, &o)
    WireBytes.date(now, &o, cache: dates)
    o.append(UInt8(ascii: "}"))
    dates.pingResult = (now, o)
    return .bytes(o)
  }
}
