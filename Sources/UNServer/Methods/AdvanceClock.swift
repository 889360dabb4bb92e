import JSONRPC
import UNModel

/// `advanceClock`: moves the manual clock, firing every due trigger in date order.  The
/// answer lists the first `Center.listedFirings` identifiers; when more fired, it says
/// how many (`firedCount`) and that the list is cut (`truncated`).
enum AdvanceClock: Method {
  static let name = "advanceClock"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["seconds"])
    let seconds = try p.requiredDouble("seconds")
    let advance = try call.model { () throws(UNError) in try call.center.advanceClock(seconds: seconds) }
    var result: [JSONMember] = [
      JSONMember("now", ModelEncoding.date(advance.now)),
      JSONMember("fired", .array(advance.fired.map { .string($0) })),
    ]
    if advance.firedCount > advance.fired.count {
      result.append(JSONMember("firedCount", .int(advance.firedCount)))
      result.append(JSONMember("truncated", .bool(true)))
    }
    return .object(result)
  }
}
