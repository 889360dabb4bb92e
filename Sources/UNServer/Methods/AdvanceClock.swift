import JSONRPC
import UNModel

/// `advanceClock`: moves the manual clock, firing every due trigger in date order.
enum AdvanceClock: Method {
  static let name = "advanceClock"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["seconds"])
    let seconds = try p.requiredDouble("seconds")
    let (now, fired) = try call.model { () throws(UNError) in try call.center.advanceClock(seconds: seconds) }
    return .object(["now": ModelEncoding.date(now), "fired": .array(fired.map { .string($0) })])
  }
}
