import JSONRPC
import UNModel

/// The trigger shape, `{type: timeInterval | calendar | push, ...}` or null (deliver
/// now): read from the tree, read from the pull reader (the `scheduleLocal` fast
/// path), written as bytes (responses, rows, and the tree through `ModelEncoding.tree`),
/// and the OpenRPC properties of each variant and of DateComponents.
public enum TriggerShape {
  public static let timeIntervalNames = timeIntervalSchema.names
  public static let calendarNames = calendarSchema.names

  /// A trigger object, or nil for `null`/absent.  `stored`: a request read back from the
  /// store, where `push` is accepted (clients cannot send one) and a zone an older
  /// version kept with U+0000 is read as the zone it named (Foundation read the name up
  /// to the NUL).
  public static func decode(_ value: JSONValue?, stored: Bool = false) throws(RPCError) -> Trigger? {
    guard let value, value != .null else { return nil }
    guard case .object = value else {
      throw RPCError.invalidParams(field: "trigger", "expected an object or null, got \(value.typeName)")
    }
    let type = value["type"]
    switch type {
    case .string("timeInterval")?:
      let p = try Params(value, path: "trigger", allowed: timeIntervalNames)
      let seconds = try p.requiredDouble("timeInterval")
      let repeats = try p.bool("repeats") ?? false
      do {
        return .timeInterval(try TimeIntervalTrigger(seconds: seconds, repeats: repeats))
      } catch {
        throw ErrorMapping.rpcError(error)
      }
    case .string("calendar")?:
      let p = try Params(value, path: "trigger", allowed: calendarNames, stored: stored)
      guard let m = try p.object("dateMatching", allowed: CalendarTrigger.ranges.map(\.name)) else {
        throw RPCError.invalidParams(field: "trigger.dateMatching", "required")
      }
      let components = CalendarTrigger.Components(
        year: try m.int("year"), month: try m.int("month"), day: try m.int("day"), hour: try m.int("hour"),
        minute: try m.int("minute"), second: try m.int("second"), weekday: try m.int("weekday"))
      var zone = try p.identifier("timeZone")
      if stored, let name = zone, let nul = name.utf8.firstIndex(of: 0) { zone = String(name[..<nul]) }
      let repeats = try p.bool("repeats") ?? false
      do {
        return .calendar(try CalendarTrigger(dateMatching: components, timeZone: zone, repeats: repeats))
      } catch {
        throw ErrorMapping.rpcError(error)
      }
    case .string("push")? where stored:
      return .push
    case .string(let other)?:
      throw RPCError.invalidParams(field: "trigger.type", "'\(other)' is not one of 'timeInterval', 'calendar'")
    case nil, .null?:
      throw RPCError.invalidParams(field: "trigger.type", "required")
    case let other?:
      throw RPCError.invalidParams(field: "trigger.type", "expected a string, got \(other.typeName)")
    }
  }

  /// `{"type": "timeInterval", "timeInterval": seconds, "repeats"?: bool}` from the pull
  /// reader, as `decode` reads it; nil for anything else (a calendar trigger, a
  /// malformed or invalid one), which the general path then reads from the tree.
  public static func read(_ r: inout JSONPullReader) -> Trigger? {
    guard r.beginObject() else { return nil }
    var first = true
    var seen: UInt8 = 0
    var seconds: Double?
    var repeats = false
    while true {
      // The next member is guessed in the order clients usually send them (type,
      // timeInterval, repeats): comparing the expected name costs less than scanning it.
      let member: JSONPullReader.Member
      switch seen {
      case 0: member = r.nextMember(&first, likely: "type")
      case 1: member = r.nextMember(&first, likely: "timeInterval")
      case 3: member = r.nextMember(&first, likely: "repeats")
      default: member = r.nextMember(&first)
      }
      switch member {
      case .other:
        return nil
      case .end:
        guard seen & 1 != 0, let seconds, let t = try? TimeIntervalTrigger(seconds: seconds, repeats: repeats) else {
          return nil
        }
        return .timeInterval(t)
      case .name(let name):
        let bit: UInt8
        if name.is("type") {
          bit = 1
          guard let t = r.plainString(), t.is("timeInterval") else { return nil }
        } else if name.is("timeInterval") {
          bit = 2
          guard let d = r.double(), d.isFinite else { return nil }
          seconds = d
        } else if name.is("repeats") {
          bit = 4
          if !r.null() {
            guard let b = r.bool() else { return nil }
            repeats = b
          }
        } else {
          return nil
        }
        guard seen & bit == 0 else { return nil }
        seen |= bit
      }
    }
  }

  /// The trigger object, or `null`.  Seconds are written as given (`1.5`, `60`).
  public static func encode(_ t: Trigger?, _ o: inout [UInt8]) {
    switch t {
    case nil:
      WireBytes.key("null", &o)
    case .timeInterval(let t)?:
      WireBytes.key(#"{"type":"timeInterval","timeInterval":"#, &o)
      if t.seconds == t.seconds.rounded(.towardZero), t.seconds < 1e9 {
        WireBytes.integer(Int(t.seconds), &o)
      } else {
        WireBytes.number(.double(t.seconds), &o)
      }
      WireBytes.key(t.repeats ? #","repeats":true}"# : #","repeats":false}"#, &o)
    case .calendar(let c)?:
      WireBytes.key(#"{"type":"calendar","dateMatching":{"#, &o)
      let d = c.dateMatching
      var first = true
      for ((name, _), value) in zip(
        CalendarTrigger.ranges, [d.year, d.month, d.day, d.hour, d.minute, d.second, d.weekday])
      {
        guard let value else { continue }
        if !first { o.append(UInt8(ascii: ",")) }
        first = false
        WireBytes.string(name, &o)
        o.append(UInt8(ascii: ":"))
        WireBytes.number(.int(value), &o)
      }
      WireBytes.member(#"},"timeZone":"#, c.timeZoneIdentifier, &o)
      WireBytes.key(c.repeats ? #","repeats":true}"# : #","repeats":false}"#, &o)
    case .push?:
      WireBytes.key(#"{"type":"push"}"#, &o)
    }
  }

  public static let timeIntervalSchema = DescribedSchema([
    "type": .constant("timeInterval"),
    "timeInterval": .of(
      "number", ["exclusiveMinimum": .int(0), "maximum": .int(Int(TimeIntervalTrigger.maxSeconds))],
      "Seconds (> 0; >= 60 when repeating; -32008 otherwise). Fires at added + k * timeInterval, no drift."),
    "repeats": .of("boolean", "Default false."),
  ])

  public static let calendarSchema = DescribedSchema([
    "type": .constant("calendar"),
    "dateMatching": .ref("DateComponents"),
    "timeZone": .of(
      "string",
      "IANA time zone name; absent = the daemon's zone at scheduling time (always present in output)."),
    "repeats": .of("boolean", "Default false."),
  ])

  public static let pushSchema = DescribedSchema(["type": .constant("push")])

  /// One integer property per component, with its valid range.
  public static let dateComponentsSchema = DescribedSchema(
    properties: CalendarTrigger.ranges.map { name, range in
      let weekday = name == "weekday" ? "1 = Sunday ... 7 = Saturday, as DateComponents.weekday." : nil
      return JSONMember(
        name,
        PropertySchema.of("integer", ["minimum": .int(range.lowerBound), "maximum": .int(range.upperBound)], weekday)
          .value)
    })
}
