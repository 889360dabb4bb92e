import JSONRPC
import UNModel

/// `listPending`: by next date, then identifier; `limit`/`after` paginate with an opaque
/// cursor (`<epoch ms>:<identifier>` of the last request of the previous page).
enum ListPending: Method {
  static let name = "listPending"

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "limit", "after", "upcoming"])
    let upcoming = try p.int("upcoming", in: 1...1000)
    let app = try call.app(p)
    let limit = try p.int("limit", in: 1...Int.max)
    var after: (Instant, String)?
    if let cursor = try p.string("after") {
      guard let colon = cursor.firstIndex(of: ":"), let ms = Int64(cursor[..<colon]) else {
        throw RPCError.invalidParams(field: "after", "not a cursor returned by listPending")
      }
      after = (Instant(milliseconds: ms), String(cursor[cursor.index(after: colon)...]))
    }
    if upcoming == nil {
      var o: [UInt8] = []
      o.reserveCapacity(64 + min(limit ?? 100, 1000) * 400)
      WireBytes.key(#"{"requests":["#, &o)
      var first = true
      let next = call.center.visitPendingViews(app: app, after: after, limit: limit) { entry in
        if !first { o.append(UInt8(ascii: ",")) }
        first = false
        WireBytes.pending(entry, &o)
      }
      o.append(UInt8(ascii: "]"))
      if let (date, id) = next {
        WireBytes.key(#","next":"#, &o)
        WireBytes.string("\(date.milliseconds):\(id)", &o)
      }
      o.append(UInt8(ascii: "}"))
      return .bytes(o)
    }
    let page = call.center.listPending(app: app, after: after, limit: limit)
    let requests: [JSONValue] = page.requests.map { entry in
      var json = ModelEncoding.pending(entry)
      if let upcoming, case .object(var members) = json, let trigger = entry.request.trigger {
        let dates = trigger.upcomingDates(
          anchor: entry.anchor, after: call.center.clock.now, first: entry.nextDate, count: upcoming)
        members.append(JSONMember("upcomingTriggerDates", .array(dates.map(ModelEncoding.date))))
        json = .object(members)
      }
      return json
    }
    var m: [JSONMember] = [JSONMember("requests", .array(requests))]
    if let (date, id) = page.next { m.append(JSONMember("next", .string("\(date.milliseconds):\(id)"))) }
    return .object(m)
  }
}
