import JSONRPC
import UNModel
import UNProtocol

/// `listDelivered`: newest first; `limit`/`after` paginate with an opaque cursor
/// (`<epoch ms>:<delivery sequence>` of the last notification of the previous page).
enum ListDelivered: Method {
  static let name = "listDelivered"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "limit", "after", "grouped"])
    let app = try call.app(p)
    let limit = try p.int("limit", in: 1...Int.max)
    let grouped = try p.bool("grouped") ?? false
    var after: (Instant, UInt64)?
    if let cursor = try p.string("after") {
      let parts = cursor.split(separator: ":")
      guard parts.count == 2, let ms = Int64(parts[0]), let seq = UInt64(parts[1]) else {
        throw RPCError.invalidParams(field: "after", "not a cursor returned by listDelivered")
      }
      after = (Instant(milliseconds: ms), seq)
    }
    var o: [UInt8] = []
    if grouped {
      WireBytes.key(#"{"groups":"#, &o)
      WireBytes.array(call.center.deliveredGroups(app: app), &o) { NotificationShape.encode($0, &$1) }
      o.append(UInt8(ascii: "}"))
      return .bytes(o)
    }
    let page = call.center.listDelivered(app: app, after: after, limit: limit)
    WireBytes.key(#"{"notifications":"#, &o)
    WireBytes.array(page.notifications, &o) { NotificationShape.encode($0, &$1) }
    if page.more, let last = page.notifications.last {
      WireBytes.member(#","next":"#, "\(last.date.milliseconds):\(last.sequence)", &o)
    }
    o.append(UInt8(ascii: "}"))
    return .bytes(o)
  }
}
