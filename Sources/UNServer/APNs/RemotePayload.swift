import JSONRPC
import UNModel
import UNProtocol

/// APNs payload → content, as `xcrun simctl push` and iOS read it (proto-docs/README.md,
/// "Remote payloads").
///
/// Only what makes a payload unusable is refused (`-32009`): not an object, no `aps`
/// object, over 4096 bytes.  APNs and iOS accept the rest and ignore what does not
/// apply, so an ill-typed or out-of-range key is ignored here too, and named in a warning
/// (`aps.relevance-score: expected a number between 0 and 1, got 100; ignored`).
enum RemotePayload {
  static let maxBytes = 4096

  static func invalid(_ reason: String) -> RPCError { ErrorMapping.rpcError(.invalidPayload(reason)) }

  /// An `aps` identifier as given; one with U+0000 is refused, as in `scheduleLocal`'s
  /// content (identifiers are kept and compared as their exact bytes).
  private static func identifier(_ value: String?, _ key: String) throws(RPCError) -> String? {
    if let value { try Params.refuseNUL(value, field: "payload.aps." + key) }
    return value
  }

  /// Reads one payload, collecting the warnings as it goes.
  struct Reader {
    var warnings: [String] = []

    /// `path: expected what, got value; ignored`.
    mutating func ignore(_ path: String, expected: String, got value: JSONValue) {
      warnings.append("\(path): expected \(expected), got \(RemotePayload.describe(value)); ignored")
    }

    /// A string member; nil (with a warning) when it has another type.
    mutating func string(_ object: JSONValue, _ key: String, in path: String) -> String? {
      switch object[key] {
      case nil, .null?: return nil
      case .string(let s)?: return s
      case let other?:
        ignore("\(path).\(key)", expected: "a string", got: other)
        return nil
      }
    }

    /// A `*-loc-args` array of strings (numbers are turned into their text, as the
    /// format's `%@` would print them).
    mutating func arguments(_ object: JSONValue, _ key: String, in path: String) -> [String] {
      switch object[key] {
      case nil, .null?: return []
      case .array(let items)?:
        var out: [String] = []
        for (i, item) in items.enumerated() {
          switch item {
          case .string(let s): out.append(s)
          case .number(let text): out.append(text)
          default: ignore("\(path).\(key)[\(i)]", expected: "a string", got: item)
          }
        }
        return out
      case let other?:
        ignore("\(path).\(key)", expected: "an array of strings", got: other)
        return []
      }
    }

    /// `content-available` / `mutable-content`: 1 switches it on; other numbers do not.
    mutating func flag(_ aps: JSONValue, _ key: String) -> Bool {
      switch aps[key] {
      case nil, .null?: return false
      case .number?: return aps[key]?.intValue == 1
      case let other?:
        ignore("aps.\(key)", expected: "the number 1", got: other)
        return false
      }
    }
  }

  /// Maps a payload.  The size is that of the payload's compact serialization (what
  /// APNs would carry).
  static func map(_ payload: JSONValue) throws(RPCError) -> RemotePush {
    guard case .object = payload else { throw invalid("the payload must be a JSON object, got \(payload.typeName)") }
    let bytes = payload.encoded()
    guard bytes.count <= maxBytes else {
      throw invalid("the payload is \(bytes.count) bytes; the limit is \(maxBytes)")
    }
    guard let aps = payload["aps"] else { throw invalid("the payload has no 'aps' dictionary") }
    guard case .object = aps else { throw invalid("'aps' must be an object, got \(aps.typeName)") }
    var r = Reader()
    var c = Content()
    c.userInfo = JSONText(bytes: bytes)
    if let event = liveActivity(aps, &r) {
      return RemotePush(
        content: c, payload: c.userInfo, mutableContent: false, silent: false, contentAvailable: false,
        liveActivityEvent: event, warnings: r.warnings)
    }
    let localization = alert(aps, into: &c, &r)
    let hasAlert = c.hasAlertText || localization != nil
    badge(aps, into: &c, &r)
    sound(aps, into: &c, &r)
    c.threadIdentifier = try identifier(r.string(aps, "thread-id", in: "aps"), "thread-id") ?? ""
    c.categoryIdentifier = try identifier(r.string(aps, "category", in: "aps"), "category") ?? ""
    c.targetContentIdentifier = try identifier(r.string(aps, "target-content-id", in: "aps"), "target-content-id")
    c.filterCriteria = r.string(aps, "filter-criteria", in: "aps")
    if let level = r.string(aps, "interruption-level", in: "aps") {
      switch level {
      case "passive": c.interruptionLevel = .passive
      case "active": c.interruptionLevel = .active
      case "time-sensitive": c.interruptionLevel = .timeSensitive
      case "critical": c.interruptionLevel = .critical
      default:
        r.ignore("aps.interruption-level", expected: "passive, active, time-sensitive or critical", got: .string(level))
      }
    }
    if let score = aps["relevance-score"], score != .null {
      if let d = score.doubleValue, d >= 0, d <= 1 {
        c.relevanceScore = d
      } else {
        r.ignore("aps.relevance-score", expected: "a number between 0 and 1", got: score)
      }
    }
    let contentAvailable = r.flag(aps, "content-available")
    let mutable = r.flag(aps, "mutable-content")
    return RemotePush(
      content: c, payload: JSONText(bytes: bytes), mutableContent: mutable,
      silent: contentAvailable && !hasAlert && c.badge == nil && c.sound == nil, contentAvailable: contentAvailable,
      localization: localization, warnings: r.warnings)
  }

  /// `aps.event` (with `content-state`): a Live Activity push, whose alert is the
  /// activity's own and whose `relevance-score` ranks activities, not notifications.
  static func liveActivity(_ aps: JSONValue, _ r: inout Reader) -> String? {
    func present(_ key: String) -> Bool { aps[key] != nil && aps[key] != .null }
    guard present("event") || present("content-state") else { return nil }
    let event = aps["event"]?.stringValue ?? "update"
    r.warnings.append(
      "aps.event: a Live Activity \(event) is shown by ActivityKit, not as a notification; not shown")
    return event
  }

  static func badge(_ aps: JSONValue, into c: inout Content, _ r: inout Reader) {
    guard let badge = aps["badge"], badge != .null else { return }
    if let n = badge.intValue, n >= 0 {
      c.badge = n
    } else {
      r.ignore("aps.badge", expected: "an integer >= 0", got: badge)
    }
  }

  /// `"name"` or `{critical, name, volume}`, kept whole.
  static func sound(_ aps: JSONValue, into c: inout Content, _ r: inout Reader) {
    switch aps["sound"] {
    case nil, .null?: return
    case .string(let name)?:
      c.sound = name == "default" ? .default : .named(name)
    case .object?:
      let sound = aps["sound"]!
      let name = r.string(sound, "name", in: "aps.sound")
      var s = Sound(name: name == "default" ? nil : name)
      switch sound["critical"] {
      case nil, .null?: break
      case .number?, .bool?:
        s.critical = sound["critical"]?.intValue == 1 || sound["critical"] == .bool(true)
      case let other?: r.ignore("aps.sound.critical", expected: "0 or 1", got: other)
      }
      if let volume = sound["volume"], volume != .null {
        if let v = volume.doubleValue, v >= 0, v <= 1 {
          s.volume = v
        } else {
          r.ignore("aps.sound.volume", expected: "a number between 0 and 1", got: volume)
        }
      }
      c.sound = s
      if s.critical { c.interruptionLevel = .critical }
    case let other?:
      r.ignore("aps.sound", expected: "a string or a dictionary", got: other)
    }
  }

  /// A short text for a warning: small values as JSON (`100`, `"5"`), others by type.
  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .object, .array: return value.typeName
    default:
      let text = String(decoding: value.encoded(), as: UTF8.self)
      return text.utf8.count <= 40 ? text : value.typeName
    }
  }
}
