import JSONRPC
import UNModel

/// The event history's stored rows: one per event, numbered by its sequence (offset, so
/// that event numbers never meet pending requests' addition sequences in the numbered
/// table).  Each field keeps its type tag, so an event reads back exactly as it was
/// recorded whatever fields later versions add.  Since schema 4 the row is an array,
/// `[seq, type, app, date, fields]`:
/// `[7,"scheduled","a",ms,[["identifier","s","n1"],["nextTriggerDate","d",ms]]]`; before,
/// an object with those keys (`{"seq":7,"type":…,"fields":[…]}`), which still loads.
/// Since schema 6 an event whose fields are an identifier, and maybe a next trigger
/// date (every schedule, replacement and removal), is `[seq, type, app, date,
/// identifier]` or `[…, identifier, nextTriggerDate]`: `[7,"scheduled","a",ms,"n1",ms]`,
/// ~45 bytes less of ~115.
extension StateCodec {
  /// Event `n` is stored under number `eventNumberBase + n`.
  static let eventNumberBase: UInt64 = 1 << 62

  /// Written straight into bytes: with `--state`, every event of every request is one.
  static func eventRow(_ e: Event) -> [UInt8] {
    var o: [UInt8] = []
    o.reserveCapacity(160)
    eventRow(e, into: &o)
    return o
  }

  static func eventRow(_ e: borrowing Event, into o: inout [UInt8]) {
    withUnsafePointer(to: e) { eventRow(at: $0, into: &o) }
  }

  /// On the event where the batch holds it (`BatchRows`): not copied, which would
  /// retain and release its strings.
  static func eventRow(at e: UnsafePointer<Event>, into o: inout [UInt8]) {
    if let fields = e.pointee.identifierFields,
      plainEventRow(
        e.pointee.sequence, e.pointee.kind, e.pointee.app, e.pointee.date, fields.identifier, fields.nextTriggerDate,
        &o)
    {
      return
    }
    eventRowFields(e.pointee, into: &o)
  }

  /// The events of every schedule, replacement and removal (an identifier, and maybe a
  /// date) through a `RowCursor`: the same bytes as `eventRowFields` (tested), or false
  /// when a text needs escaping.  The texts are read where they are.
  private static func plainEventRow(
    _ sequence: UInt64, _ kind: Event.Kind, _ app: borrowing String, _ date: Instant, _ id: borrowing String,
    _ next: Instant?, _ o: inout [UInt8]
  ) -> Bool {
    let type = kind.rawValue
    return app.utf8.withContiguousStorageIfAvailable { a in
      id.utf8.withContiguousStorageIfAvailable { i in
        type.utf8.withContiguousStorageIfAvailable { k in
          RowCursor.write(&o, room: RowCursor.fixedRoom + k.count + a.count + i.count) { c in
            c.byte(UInt8(ascii: "["))
            c.integer(sequence)
            c.byte(UInt8(ascii: ","))
            guard c.plainQuoted(k) else { return false }
            c.byte(UInt8(ascii: ","))
            guard c.plainQuoted(a) else { return false }
            c.byte(UInt8(ascii: ","))
            c.integer(date.milliseconds)
            c.byte(UInt8(ascii: ","))
            guard c.plainQuoted(i) else { return false }
            if let next {
              c.byte(UInt8(ascii: ","))
              c.integer(next.milliseconds)
            }
            c.byte(UInt8(ascii: "]"))
            return true
          }
        } ?? false
      } ?? false
    } ?? false
  }

  /// Any event, field by field.
  static func eventRowFields(_ e: borrowing Event, into o: inout [UInt8]) {
    o.append(UInt8(ascii: "["))
    JSONWriter.appendInteger(e.sequence, to: &o)
    o.append(UInt8(ascii: ","))
    JSONWriter.appendString(e.kind.rawValue, to: &o)
    o.append(UInt8(ascii: ","))
    JSONWriter.appendString(e.app, to: &o)
    o.append(UInt8(ascii: ","))
    JSONWriter.appendInteger(e.date.milliseconds, to: &o)
    if let fields = e.identifierFields {
      o.append(UInt8(ascii: ","))
      JSONWriter.appendString(fields.identifier, to: &o)
      if let next = fields.nextTriggerDate {
        o.append(UInt8(ascii: ","))
        JSONWriter.appendInteger(next.milliseconds, to: &o)
      }
      o.append(UInt8(ascii: "]"))
      return
    }
    JSONWriter.appendASCII(",[", to: &o)
    var first = true
    e.forEachField { name, value in
      if !first { o.append(UInt8(ascii: ",")) }
      first = false
      o.append(UInt8(ascii: "["))
      JSONWriter.appendString(name, to: &o)
      switch value {
      case .string(let s):
        JSONWriter.appendASCII(#","s","#, to: &o)
        JSONWriter.appendString(s, to: &o)
      case .int(let i):
        JSONWriter.appendASCII(#","i","#, to: &o)
        JSONWriter.appendInteger(Int64(i), to: &o)
      case .bool(let b):
        JSONWriter.appendASCII(b ? #","b",true"# : #","b",false"#, to: &o)
      case .strings(let list):
        JSONWriter.appendASCII(#","S",["#, to: &o)
        for (i, s) in list.enumerated() {
          if i > 0 { o.append(UInt8(ascii: ",")) }
          JSONWriter.appendString(s, to: &o)
        }
        o.append(UInt8(ascii: "]"))
      case .date(let d):
        JSONWriter.appendASCII(#","d","#, to: &o)
        JSONWriter.appendInteger(d.milliseconds, to: &o)
      }
      o.append(UInt8(ascii: "]"))
    }
    JSONWriter.appendASCII("]]", to: &o)
  }

  static func decodeEvent(_ v: JSONValue) throws(Corrupt) -> Event {
    if let parts = v.arrayValue {
      if parts.count == 5 || parts.count == 6, let identifier = parts[4].stringValue {
        // [seq, type, app, date, identifier] or [..., identifier, nextTriggerDate].
        var fields: [(String, Event.Value)] = [("identifier", .string(identifier))]
        if parts.count == 6 {
          guard let next = parts[5].intValue else { throw Corrupt(description: "event: a bad nextTriggerDate") }
          fields.append(("nextTriggerDate", .date(Instant(milliseconds: Int64(next)))))
        }
        return try decodeEvent(seq: parts[0], type: parts[1], app: parts[2], date: parts[3]) { _ in fields }
      }
      guard parts.count == 5 else { throw Corrupt(description: "event: expected [seq, type, app, date, fields]") }
      return try decodeEvent(seq: parts[0], type: parts[1], app: parts[2], date: parts[3]) { seq throws(Corrupt) in
        try decodeFields(parts[4], of: seq)
      }
    }
    return try decodeEvent(seq: v["seq"], type: v["type"], app: v["app"], date: v["date"]) { seq throws(Corrupt) in
      try decodeFields(v["fields"], of: seq)
    }
  }

  /// The event from its header and its fields (`fields`, given the event's number).
  private static func decodeEvent(
    seq: JSONValue?, type: JSONValue?, app: JSONValue?, date: JSONValue?,
    fields: (Int) throws(Corrupt) -> [(String, Event.Value)]
  ) throws(Corrupt) -> Event {
    guard let seq = seq?.intValue, seq > 0,
      let kind = type?.stringValue.flatMap(Event.Kind.init(rawValue:)),
      let app = app?.stringValue, let date = date?.intValue
    else { throw Corrupt(description: "event: expected seq, type, app, date, fields") }
    var event = Event(kind, app: app, date: Instant(milliseconds: Int64(date)), try fields(seq))
    event.sequence = UInt64(seq)
    return event
  }

  /// A field list, `[[name, tag, value], ...]`.
  private static func decodeFields(_ v: JSONValue?, of seq: Int) throws(Corrupt) -> [(String, Event.Value)] {
    guard let fields = v?.arrayValue else { throw Corrupt(description: "event: expected seq, type, app, date, fields") }
    var decoded: [(String, Event.Value)] = []
    for field in fields {
      guard let parts = field.arrayValue, parts.count == 3, let name = parts[0].stringValue,
        let tag = parts[1].stringValue
      else { throw Corrupt(description: "event \(seq): a field is not [name, tag, value]") }
      let value: Event.Value?
      switch tag {
      case "s": value = parts[2].stringValue.map { .string($0) }
      case "i": value = parts[2].intValue.map { .int($0) }
      case "b": value = parts[2].boolValue.map { .bool($0) }
      case "S": value = parts[2].arrayValue.map { list in .strings(list.compactMap(\.stringValue)) }
      case "d": value = parts[2].intValue.map { .date(Instant(milliseconds: Int64($0))) }
      default: value = nil
      }
      guard let value else { throw Corrupt(description: "event \(seq): field '\(name)' has a bad \(tag) value") }
      decoded.append((name, value))
    }
    return decoded
  }
}
