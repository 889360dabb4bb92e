import JSONRPC
import UNModel
import UNProtocol

/// `listPending`: by next date, then identifier; `limit`/`after` paginate with an opaque
/// cursor (`<epoch ms>:<identifier>` of the last request of the previous page).
enum ListPending: Method {
  static let name = "listPending"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "limit", "after", "upcoming"])
    let upcoming = try p.int("upcoming", in: 1...1000)
    let app = try call.app(p)
    let limit = try p.int("limit", in: 1...Int.max)
    var after: (Instant, String)?
    if let cursor = try p.identifier("after") {
      guard let colon = cursor.firstIndex(of: ":"), let ms = Int64(cursor[..<colon]) else {
        throw RPCError.invalidParams(field: "after", "not a cursor returned by listPending")
      }
      after = (Instant(milliseconds: ms), String(cursor[cursor.index(after: colon)...]))
    }
    if upcoming == nil {
      // A listed request of the common shape is about 450 bytes: room for the whole page
      // at once, so it is not copied into a larger array halfway.
      var w = ByteWriter(capacity: 64 + min(limit ?? 100, 1000) * 512)
      w.append(#"{"requests":["#)
      var first = true
      let next = call.center.visitPendingViews(app: app, after: after, limit: limit) { entry in
        if !first { w.append(UInt8(ascii: ",")) }
        first = false
        WireBytes.pending(entry, &w)
      }
      w.append(UInt8(ascii: "]"))
      if let (date, id) = next {
        w.append(#","next":"#)
        Array("\(date.milliseconds):\(id)".utf8).withUnsafeBufferPointer { w.appendString(utf8: $0) }
      }
      w.append(UInt8(ascii: "}"))
      return .bytes(w.finish())
    }
    let count = upcoming ?? 0
    let now = call.center.clock.now
    let page = call.center.listPending(app: app, after: after, limit: limit)
    var o: [UInt8] = []
    WireBytes.key(#"{"requests":"#, &o)
    WireBytes.array(page.requests, &o) { entry, o in
      let dates = entry.request.trigger.map {
        $0.upcomingDates(anchor: entry.anchor, after: now, first: entry.nextDate, count: count)
      }
      RequestShape.encode(entry, upcoming: dates, &o)
    }
    if let (date, id) = page.next {
      WireBytes.member(#","next":"#, "\(date.milliseconds):\(id)", &o)
    }
    o.append(UInt8(ascii: "}"))
    return .bytes(o)
  }
}
