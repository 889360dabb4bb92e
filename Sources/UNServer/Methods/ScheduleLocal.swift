import JSONRPC
import UNModel

/// `scheduleLocal`: adds or replaces a pending request (rule 2).
enum ScheduleLocal: Method {
  static let name = "scheduleLocal"

  static func handle(_ call: Call) throws(RPCError) -> JSONValue {
    let p = try call.params(allowed: ["app", "identifier", "content", "trigger"])
    let app = try call.app(p)
    let identifier = try p.requiredString("identifier")
    let content = try ModelDecoding.content(p.value("content"))
    let trigger = try ModelDecoding.trigger(p.value("trigger"))
    let request = NotificationRequest(identifier: identifier, content: content, trigger: trigger)
    let r = try call.model { () throws(UNError) in try call.center.schedule(app: app, request) }
    var o: [UInt8] = []
    o.reserveCapacity(160)
    WireBytes.key(#"{"identifier":"#, &o)
    WireBytes.string(r.identifier, &o)
    WireBytes.key(r.scheduled ? #","scheduled":true"# : #","scheduled":false"#, &o)
    WireBytes.key(r.replaced ? #","replaced":true,"nextTriggerDate":"# : #","replaced":false,"nextTriggerDate":"#, &o)
    if let next = r.nextTriggerDate { WireBytes.date(next, &o) } else { WireBytes.key("null", &o) }
    WireBytes.key(#","warnings":["#, &o)
    for (i, w) in r.warnings.enumerated() {
      if i > 0 { o.append(UInt8(ascii: ",")) }
      WireBytes.string(w, &o)
    }
    WireBytes.key("]}", &o)
    return call.answer(encoded: o)
  }
}
