import Foundation
import JSONRPC

/// Helpers shared by the wire encoders and decoders.
enum Wire {
  static func string(_ v: JSONValue, _ name: String) throws(UNCenterError) -> String {
    guard let s = v[name]?.stringValue else { throw .invalidResponse("expected a string '\(name)' in \(text(v))") }
    return s
  }

  static func strings(_ v: JSONValue?) -> [String] { v?.arrayValue?.compactMap(\.stringValue) ?? [] }

  static func text(_ v: JSONValue) -> String { String(decoding: v.encoded(), as: UTF8.self) }

  static func utcCalendar() -> Calendar {
    var c = Calendar(identifier: .gregorian)
    c.timeZone = TimeZone(identifier: "UTC")!
    return c
  }

  /// RFC 3339 UTC with milliseconds (`2026-11-29T18:00:05.000Z`), as the daemon writes.
  static func date(_ text: String) -> Date? {
    let parts = text.split(whereSeparator: { "-T:Z.".contains($0) }).map(String.init)
    guard text.hasSuffix("Z"), parts.count >= 6, let y = Int(parts[0]), let mo = Int(parts[1]), let d = Int(parts[2]),
      let h = Int(parts[3]), let mi = Int(parts[4]), let s = Int(parts[5])
    else { return nil }
    var ms = 0.0
    if parts.count >= 7, let fraction = Double("0." + parts[6]) { ms = fraction }
    let c = DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    guard let base = utcCalendar().date(from: c) else { return nil }
    return base.addingTimeInterval(ms)
  }

  static func date(_ v: JSONValue?) -> Date? { v?.stringValue.flatMap { date($0) } }

  static func rfc3339(_ date: Date) -> String {
    let total = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    let (q, r) = total.quotientAndRemainder(dividingBy: 1000)
    let seconds = r < 0 ? q - 1 : q
    let millis = r < 0 ? r + 1000 : r
    let c = utcCalendar().dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
    func pad(_ n: Int?, _ w: Int) -> String {
      let s = String(n ?? 0)
      return String(repeating: "0", count: max(0, w - s.count)) + s
    }
    return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):"
      + "\(pad(c.second, 2)).\(pad(Int(millis), 3))Z"
  }

  /// A value written by one of the protocol's byte encoders, as a tree.
  static func tree(_ write: (inout [UInt8]) -> Void) -> JSONValue {
    var bytes: [UInt8] = []
    write(&bytes)
    return (try? JSONParser.parse(bytes)) ?? .null
  }

  /// A value read by one of the protocol's decoders from what the daemon wrote; its
  /// refusal is an invalid response naming `what`.
  static func read<T>(_ what: String, _ v: JSONValue, _ decode: (JSONValue) throws(RPCError) -> T)
    throws(UNCenterError) -> T
  {
    do {
      return try decode(v)
    } catch {
      throw .invalidResponse("unreadable \(what) (\(error.message)) in \(text(v))")
    }
  }

  // MARK: userInfo

  /// A Foundation value as JSON, as `JSONSerialization` would write it: strings,
  /// booleans, numbers (Swift's and `NSNumber`), arrays, dictionaries (keys as strings),
  /// `NSNull`/nil as null; also `JSONValue`, `Date` (RFC 3339) and `URL` (its string).
  /// Anything else becomes its description, never a trap.
  static func json(_ value: Any?) -> JSONValue {
    guard let value else { return .null }
    if let v = value as? JSONValue { return v }
    if value is NSNull { return .null }
    if let n = value as? NSNumber, type(of: value) is NSNumber.Type {
      let kind = String(cString: n.objCType)
      if kind == "c" || kind == "B" { return .bool(n.boolValue) }
      if kind == "f" || kind == "d" { return .double(n.doubleValue) }
      return .int(n.intValue)
    }
    switch value {
    case let v as String: return .string(v)
    case let v as Substring: return .string(String(v))
    case let v as Bool: return .bool(v)
    case let v as Int: return .int(v)
    case let v as Int64: return .int(Int(v))
    case let v as Int32: return .int(Int(v))
    case let v as Int16: return .int(Int(v))
    case let v as Int8: return .int(Int(v))
    case let v as UInt: return .int(Int(truncatingIfNeeded: v))
    case let v as UInt64: return .int(Int(truncatingIfNeeded: v))
    case let v as UInt32: return .int(Int(v))
    case let v as Double: return .double(v)
    case let v as Float: return .double(Double(v))
    case let v as Date: return .string(rfc3339(v))
    case let v as URL: return .string(v.absoluteString)
    case let v as [Any]: return .array(v.map { json($0) })
    case let v as [AnyHashable: Any]: return object(v)
    case let v as [String: Any]: return object(v)
    default: return .string(String(describing: value))
    }
  }

  /// A dictionary as a JSON object, keys (as strings) sorted so the encoding is stable.
  static func object(_ dict: [AnyHashable: Any]) -> JSONValue {
    let named = dict.map { (key: ($0.key.base as? String) ?? String(describing: $0.key.base), value: $0.value) }
    return .object(named.sorted { $0.key < $1.key }.map { JSONMember($0.key, json($0.value)) })
  }

  static func object(_ dict: [String: Any]) -> JSONValue {
    .object(dict.keys.sorted().map { JSONMember($0, json(dict[$0]!)) })
  }

  /// JSON as Foundation values, as `JSONSerialization` reads it: String, Bool, Int
  /// (integral numbers), Double, [Any], [String: Any], and `NSNull` for null.
  static func value(_ json: JSONValue) -> Any {
    switch json {
    case .null: return NSNull()
    case .bool(let b): return b
    case .number(let text):
      if let i = Int(text) { return i }
      return Double(text) ?? 0
    case .string(let s): return s
    case .array(let a): return a.map { value($0) }
    case .object(let members):
      var out: [String: Any] = [:]
      for m in members where out[m.name] == nil { out[m.name] = value(m.value) }
      return out
    }
  }

  /// A JSON object as `userInfo`.
  static func userInfo(_ json: JSONValue?) -> [AnyHashable: Any] {
    var out: [AnyHashable: Any] = [:]
    for m in json?.objectValue ?? [] where out[m.name] == nil { out[m.name] = value(m.value) }
    return out
  }
}
