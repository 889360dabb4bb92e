import JSONRPC
import UNModel
import UNProtocol

/// Decoding of stored records; a record that does not decode is corruption, reported
/// with its table and key rather than dropped.
extension StateCodec {
  struct Corrupt: Error, CustomStringConvertible {
    var description: String
  }

  static func instant(_ v: JSONValue?, _ what: String) throws(Corrupt) -> Instant {
    guard let text = v.flatMap({ if case .number(let t) = $0 { t } else { nil } }), let ms = Int64(text) else {
      throw Corrupt(description: "\(what): expected epoch milliseconds")
    }
    return Instant(milliseconds: ms)
  }

  static func uint(_ v: JSONValue?, _ what: String) throws(Corrupt) -> UInt64 {
    guard let i = v?.intValue, i >= 0 else { throw Corrupt(description: "\(what): expected a count") }
    return UInt64(i)
  }

  static func decodeRequest(_ v: JSONValue?) throws(Corrupt) -> NotificationRequest {
    guard let v else { throw Corrupt(description: "request without identifier") }
    return try decodeRequest(identifier: v["identifier"], content: v["content"], trigger: v["trigger"])
  }

  static func decodeRequest(
    identifier: JSONValue?, content: JSONValue?, trigger: JSONValue?
  ) throws(Corrupt) -> NotificationRequest {
    guard let id = identifier?.stringValue else { throw Corrupt(description: "request without identifier") }
    do {
      let content = try ContentShape.decode(content, stored: true)
      let trigger = try TriggerShape.decode(trigger, stored: true)
      return NotificationRequest(identifier: id, content: content, trigger: trigger)
    } catch {
      throw Corrupt(description: "request '\(id)': \(error.message)")
    }
  }

  static func decodeCategory(_ v: JSONValue) throws(Corrupt) -> Category {
    do {
      return try CategoryShape.decode([v], path: "category", stored: true)[0]
    } catch {
      throw Corrupt(description: error.message)
    }
  }

  static func decodeApp(_ appId: String, _ v: JSONValue, into app: AppState) throws(Corrupt) {
    guard let status = v["authorization"]?.stringValue.flatMap(AuthorizationStatus.init(rawValue:)) else {
      throw Corrupt(description: "app '\(appId)': no authorization status")
    }
    app.authorization = status
    app.grantedOptions = (v["grantedOptions"]?.arrayValue ?? []).compactMap {
      $0.stringValue.flatMap(AuthorizationOption.init(rawValue:))
    }
    app.wantsForeground = v["wantsForeground"]?.boolValue ?? true
    app.badge = v["badge"]?.intValue ?? 0
    app.nextAnswer = v["nextAnswer"]?.boolValue
    app.expanded = v["expanded"]?.stringValue
    app.owner = v["owner"]?.intValue.map { UInt32(truncatingIfNeeded: $0) }
  }

  /// A pending row: `[identifier, content, trigger, anchor, next, added]` (schema 4; the
  /// positional content and bare intervals of schema 6 are read as the objects they stand
  /// for, by the same decoders as every other form), or the object written before,
  /// `{"request":{identifier, content, trigger}, anchor, next, added}`.
  static func decodePending(_ v: JSONValue) throws(Corrupt) -> PendingRequest {
    if let parts = v.arrayValue {
      guard parts.count == 6 else {
        throw Corrupt(description: "pending: expected [identifier, content, trigger, anchor, next, added]")
      }
      return PendingRequest(
        request: try decodeRequest(
          identifier: parts[0], content: try commonContent(parts[1]), trigger: try compactTrigger(parts[2])),
        anchor: try instant(parts[3], "anchor"), nextDate: try instant(parts[4], "next"),
        addedSequence: try uint(parts[5], "added"))
    }
    return PendingRequest(
      request: try decodeRequest(v["request"]), anchor: try instant(v["anchor"], "anchor"),
      nextDate: try instant(v["next"], "next"), addedSequence: try uint(v["added"], "added"))
  }

  /// The common fields in their places (`[title, body, userInfo, categoryIdentifier,
  /// threadIdentifier]`, shorter when the last are defaults) as the content object with
  /// the fields that are not at their defaults; any other value as it is.
  static func commonContent(_ v: JSONValue) throws(Corrupt) -> JSONValue {
    guard let fields = v.arrayValue else { return v }
    let names = ["title", "body", "userInfo", "categoryIdentifier", "threadIdentifier"]
    guard fields.count <= names.count else {
      throw Corrupt(description: "pending: content of \(fields.count) fields, expected at most \(names.count)")
    }
    var members: [JSONMember] = []
    for (name, field) in zip(names, fields) where field != .string("") && field != .object([]) {
      members.append(JSONMember(name, field))
    }
    return .object(members)
  }

  /// A bare interval (`N`, `[N]` when it repeats) as the time-interval trigger it stands
  /// for; any other value as it is.
  static func compactTrigger(_ v: JSONValue) throws(Corrupt) -> JSONValue {
    let seconds: JSONValue
    let repeats: Bool
    switch v {
    case .number: (seconds, repeats) = (v, false)
    case .array(let one) where one.count == 1: (seconds, repeats) = (one[0], true)
    case .array: throw Corrupt(description: "pending: expected a trigger, an interval or [interval]")
    default: return v
    }
    return .object([
      JSONMember("type", .string("timeInterval")), JSONMember("timeInterval", seconds),
      JSONMember("repeats", .bool(repeats)),
    ])
  }

  static func decodeDelivered(_ v: JSONValue?) throws(Corrupt) -> DeliveredNotification {
    guard let v else { throw Corrupt(description: "missing notification") }
    let category: Category? = try v["category"].flatMap { c throws(Corrupt) in
      c == .null ? nil : try decodeCategory(c)
    }
    return DeliveredNotification(
      date: try instant(v["date"], "date"), request: try decodeRequest(v["request"]), category: category,
      sequence: try uint(v["sequence"], "sequence"), late: v["late"]?.boolValue ?? false)
  }

  static func decodeResponse(_ v: JSONValue?) throws(Corrupt) -> NotificationResponse {
    guard let v, let id = v["responseId"]?.stringValue, let action = v["actionIdentifier"]?.stringValue else {
      throw Corrupt(description: "response without responseId or actionIdentifier")
    }
    return NotificationResponse(
      responseId: id, actionIdentifier: action, userText: v["userText"]?.stringValue,
      notification: try decodeDelivered(v["notification"]))
  }

  static func decodeQueued(_ v: JSONValue) throws(Corrupt) -> [(NotificationResponse, Instant?)] {
    var out: [(NotificationResponse, Instant?)] = []
    for item in v.arrayValue ?? [] {
      let deadline: Instant? = item["deadline"] == .null ? nil : try instant(item["deadline"], "deadline")
      out.append((try decodeResponse(item["response"]), deadline))
    }
    return out
  }

  static func decodeGlobals(_ v: JSONValue, into s: inout CenterSnapshot) throws(Corrupt) {
    s.deliverySequence = try uint(v["deliverySequence"], "deliverySequence")
    s.additionSequence = try uint(v["additionSequence"], "additionSequence")
    s.responseCounter = try uint(v["responseCounter"], "responseCounter")
    s.pushCounter = try uint(v["pushCounter"], "pushCounter")
    s.modificationCounter = try uint(v["modificationCounter"], "modificationCounter")
    s.deviceLocked = v["deviceLocked"]?.boolValue ?? false
    for o in v["openResponses"]?.arrayValue ?? [] {
      guard let id = o["responseId"]?.stringValue, let app = o["app"]?.stringValue else {
        throw Corrupt(description: "open response without id")
      }
      s.openResponses[id] = (app, try instant(o["deadline"], "deadline"))
    }
    for m in v["modifications"]?.arrayValue ?? [] {
      guard let id = m["requestId"]?.stringValue, let app = m["app"]?.stringValue else {
        throw Corrupt(description: "modification without id")
      }
      // The extension connection did not survive the restart: no session can complete it,
      // so its deadline delivers the original.
      s.pendingModifications[id] = PendingModification(
        requestId: id, app: app, request: try decodeRequest(m["request"]), session: -1,
        deadline: try instant(m["deadline"], "deadline"), warned: m["warned"]?.boolValue ?? false)
    }
    for e in v["extensionResponses"]?.arrayValue ?? [] {
      guard let id = e["responseId"]?.stringValue, let app = e["app"]?.stringValue, let p = e["prepared"] else {
        throw Corrupt(description: "extension response without id")
      }
      let prepared = PreparedResponse(
        response: try decodeResponse(p["response"]), tellsApp: p["tellsApp"]?.boolValue ?? true,
        foreground: p["foreground"]?.boolValue ?? false, background: p["background"]?.boolValue ?? false)
      s.pendingExtensionResponses[id] = (app, prepared, try instant(e["deadline"], "deadline"))
    }
    if v["clock"] != nil {
      let clock = try instant(v["clock"], "clock")
      // The manual clock never leaves RFC 3339's years; one stored past them was not
      // written by this daemon's rules.
      guard clock.isRFC3339 else {
        throw Corrupt(description: "clock: \(clock) is outside the years 0000-9999")
      }
      s.clock = clock
    }
    // Absent in rows written before event numbers were kept.
    if v["eventSequence"] != nil { s.eventSequence = try uint(v["eventSequence"], "eventSequence") }
  }
}
