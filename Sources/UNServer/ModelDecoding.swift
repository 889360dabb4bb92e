import JSONRPC
import UNModel

/// Params → model values.  Type and shape errors are found here (`-32602` with the
/// field); the rules of the domain (unique identifiers, trigger intervals) are the
/// model's own and are checked there.
enum ModelDecoding {
  /// A content object, read field by field as `ContentShape` describes it; an absent or
  /// null field keeps its default.
  static func content(_ value: JSONValue?, path: String = "content") throws(RPCError) -> Content {
    guard let value else { throw RPCError.invalidParams(field: path, "required") }
    let p = try Params(value, path: path, allowed: ContentShape.names)
    var c = Content()
    for f in ContentShape.fields {
      let name = f.key
      switch f.kind {
      case .text(_, let set), .optionalText(_, let set):
        if let v = try p.string(name) { set(&c, v) }
      case .optionalInteger(_, let set), .integer(_, let set, _):
        if let v = try p.int(name) { set(&c, v) }
      case .score(_, let set):
        if let v = try p.double(name) { set(&c, v) }
      case .sound:
        if let s = try SoundShape.decode(p) { c.sound = s }
      case .userInfo:
        guard let info = p.value(name) else { continue }
        guard case .object = info else {
          throw RPCError.invalidParams(field: p.field(name), "expected an object, got \(info.typeName)")
        }
        c.userInfo = JSONText(bytes: info.encoded())
      case .interruptionLevel:
        if let v = try p.enumValue(name, InterruptionLevel.self) { c.interruptionLevel = v }
      case .attachments:
        if let list = try p.array(name) { c.attachments = try AttachmentShape.decode(list, path: p.field(name)) }
      }
    }
    return c
  }

  /// A trigger object, or nil for `null`/absent (deliver now).
  static func trigger(_ value: JSONValue?) throws(RPCError) -> Trigger? {
    guard let value, value != .null else { return nil }
    guard case .object = value else {
      throw RPCError.invalidParams(field: "trigger", "expected an object or null, got \(value.typeName)")
    }
    let type = value["type"]
    switch type {
    case .string("timeInterval")?:
      let p = try Params(value, path: "trigger", allowed: ["type", "timeInterval", "repeats"])
      let seconds = try p.requiredDouble("timeInterval")
      let repeats = try p.bool("repeats") ?? false
      do {
        return .timeInterval(try TimeIntervalTrigger(seconds: seconds, repeats: repeats))
      } catch {
        throw ErrorMapping.rpcError(error)
      }
    case .string("calendar")?:
      let p = try Params(value, path: "trigger", allowed: ["type", "dateMatching", "timeZone", "repeats"])
      guard let m = try p.object("dateMatching", allowed: CalendarTrigger.ranges.map(\.name)) else {
        throw RPCError.invalidParams(field: "trigger.dateMatching", "required")
      }
      let components = CalendarTrigger.Components(
        year: try m.int("year"), month: try m.int("month"), day: try m.int("day"), hour: try m.int("hour"),
        minute: try m.int("minute"), second: try m.int("second"), weekday: try m.int("weekday"))
      let zone = try p.string("timeZone")
      let repeats = try p.bool("repeats") ?? false
      do {
        return .calendar(try CalendarTrigger(dateMatching: components, timeZone: zone, repeats: repeats))
      } catch {
        throw ErrorMapping.rpcError(error)
      }
    case .string(let other)?:
      throw RPCError.invalidParams(field: "trigger.type", "'\(other)' is not one of 'timeInterval', 'calendar'")
    case nil, .null?:
      throw RPCError.invalidParams(field: "trigger.type", "required")
    case let other?:
      throw RPCError.invalidParams(field: "trigger.type", "expected a string, got \(other.typeName)")
    }
  }
}
