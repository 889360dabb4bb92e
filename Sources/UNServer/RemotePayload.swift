import JSONRPC
import UNModel

/// APNs payload → content, as `xcrun simctl push` and iOS read it (SPEC §7).
enum RemotePayload {
  static let maxBytes = 4096

  static func invalid(_ reason: String) -> RPCError { ErrorMapping.rpcError(.invalidPayload(reason)) }

  /// Maps a payload; any shape error is `-32009 invalidPayload` with the reason.  The
  /// size is that of the payload's compact serialization (what APNs would carry).
  static func map(_ payload: JSONValue) throws(RPCError) -> RemotePush {
    guard case .object = payload else { throw invalid("the payload must be a JSON object, got \(payload.typeName)") }
    let bytes = payload.encoded()
    guard bytes.count <= maxBytes else {
      throw invalid("the payload is \(bytes.count) bytes; the limit is \(maxBytes)")
    }
    guard let aps = payload["aps"] else { throw invalid("the payload has no 'aps' dictionary") }
    guard case .object = aps else { throw invalid("'aps' must be an object, got \(aps.typeName)") }
    var c = Content()
    c.userInfo = JSONText(bytes: bytes)
    var hasAlert = false
    switch aps["alert"] {
    case nil, .null?: break
    case .string(let body)?:
      c.body = body
      hasAlert = true
    case .object?:
      let alert = aps["alert"]!
      c.title = try string(alert, "title", in: "aps.alert") ?? ""
      c.subtitle = try string(alert, "subtitle", in: "aps.alert") ?? ""
      c.body = try string(alert, "body", in: "aps.alert") ?? ""
      c.launchImageName = try string(alert, "launch-image", in: "aps.alert") ?? ""
      if let a = try string(alert, "summary-arg", in: "aps.alert") { c.summaryArgument = a }
      if let n = alert["summary-arg-count"] {
        guard let count = n.intValue, count >= 1 else { throw invalid("aps.alert.summary-arg-count must be an integer >= 1") }
        c.summaryArgumentCount = count
      }
      hasAlert = true
    case let other?:
      throw invalid("aps.alert must be a string or an object, got \(other.typeName)")
    }
    var hasBadge = false
    if let badge = aps["badge"], badge != .null {
      guard let n = badge.intValue, n >= 0 else { throw invalid("aps.badge must be an integer >= 0") }
      c.badge = n
      hasBadge = true
    }
    var hasSound = false
    switch aps["sound"] {
    case nil, .null?: break
    case .string(let name)?:
      c.sound = name == "default" ? .default : .named(name)
      hasSound = true
    case .object?:
      let sound = aps["sound"]!
      let name = try string(sound, "name", in: "aps.sound") ?? "default"
      c.sound = name == "default" ? .default : .named(name)
      if sound["critical"]?.intValue == 1 { c.interruptionLevel = .critical }
      hasSound = true
    case let other?:
      throw invalid("aps.sound must be a string or an object, got \(other.typeName)")
    }
    c.threadIdentifier = try string(aps, "thread-id", in: "aps") ?? ""
    c.categoryIdentifier = try string(aps, "category", in: "aps") ?? ""
    c.targetContentIdentifier = try string(aps, "target-content-id", in: "aps")
    c.filterCriteria = try string(aps, "filter-criteria", in: "aps")
    if let level = try string(aps, "interruption-level", in: "aps") {
      switch level {
      case "passive": c.interruptionLevel = .passive
      case "active": c.interruptionLevel = .active
      case "time-sensitive": c.interruptionLevel = .timeSensitive
      case "critical": c.interruptionLevel = .critical
      default: throw invalid("aps.interruption-level '\(level)' is not passive, active, time-sensitive or critical")
      }
    }
    if let score = aps["relevance-score"] {
      guard let d = score.doubleValue, d >= 0, d <= 1 else { throw invalid("aps.relevance-score must be a number in 0...1") }
      c.relevanceScore = d
    }
    let contentAvailable = aps["content-available"]?.intValue == 1
    let mutable = aps["mutable-content"]?.intValue == 1
    return RemotePush(
      content: c, payload: JSONText(bytes: bytes), mutableContent: mutable,
      silent: contentAvailable && !hasAlert && !hasBadge && !hasSound)
  }

  private static func string(_ object: JSONValue, _ key: String, in path: String) throws(RPCError) -> String? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let s)?: return s
    case let other?: throw invalid("\(path).\(key) must be a string, got \(other.typeName)")
    }
  }
}
