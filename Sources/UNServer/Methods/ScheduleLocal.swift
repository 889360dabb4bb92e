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
    return .object([
      "identifier": .string(r.identifier),
      "scheduled": .bool(r.scheduled),
      "replaced": .bool(r.replaced),
      "nextTriggerDate": r.nextTriggerDate.map(ModelEncoding.date) ?? .null,
      "warnings": .array(r.warnings.map { .string($0) }),
    ])
  }
}
