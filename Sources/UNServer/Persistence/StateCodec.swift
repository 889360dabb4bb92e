import JSONRPC
import UNModel
import UNProtocol

/// Model state ↔ stored rows.  Records are compact JSON in the wire shapes (a stored
/// request reads like `listPending` shows it) plus the bookkeeping the wire does not
/// carry (anchors, sequences), so a database can be inspected with `sqlite3` and
/// decoded with the same rules as a request.
enum StateCodec {
  static func ms(_ i: Instant) -> JSONValue { .number(String(i.milliseconds)) }

  static func app(_ a: AppState) -> JSONValue {
    var m: [JSONMember] = [
      JSONMember("authorization", .string(a.authorization.rawValue)),
      JSONMember("grantedOptions", .array(a.grantedOptions.map { .string($0.rawValue) })),
      JSONMember("wantsForeground", .bool(a.wantsForeground)), JSONMember("badge", .int(a.badge)),
    ]
    if let answer = a.nextAnswer { m.append(JSONMember("nextAnswer", .bool(answer))) }
    if let expanded = a.expanded { m.append(JSONMember("expanded", .string(expanded))) }
    if let owner = a.owner { m.append(JSONMember("owner", .int(Int(owner)))) }
    return .object(m)
  }

  /// `{request, date, category, sequence, late}`, written once per delivery.
  static func delivered(_ n: DeliveredNotification, _ o: inout [UInt8]) {
    WireBytes.key(#"{"request":"#, &o)
    RequestShape.encode(n.request, &o)
    WireBytes.key(#","date":"#, &o)
    JSONWriter.appendRaw(String(n.date.milliseconds), to: &o)
    WireBytes.key(#","category":"#, &o)
    if let c = n.category { CategoryShape.encode(c, &o) } else { WireBytes.key("null", &o) }
    WireBytes.key(#","sequence":"#, &o)
    JSONWriter.appendRaw(String(n.sequence), to: &o)
    WireBytes.key(n.late ? #","late":true}"# : #","late":false}"#, &o)
  }

  static func response(_ r: NotificationResponse) -> JSONValue {
    var m: [JSONMember] = [
      JSONMember("responseId", .string(r.responseId)), JSONMember("actionIdentifier", .string(r.actionIdentifier)),
      JSONMember("notification", ModelEncoding.tree { delivered(r.notification, &$0) }),
    ]
    if let t = r.userText { m.append(JSONMember("userText", .string(t))) }
    return .object(m)
  }

  static func prepared(_ p: PreparedResponse) -> JSONValue {
    .object([
      "response": response(p.response), "tellsApp": .bool(p.tellsApp), "foreground": .bool(p.foreground),
      "background": .bool(p.background),
    ])
  }

  static func queued(_ list: [(NotificationResponse, Instant?)]) -> JSONValue {
    .array(list.map { r, d in .object(["response": response(r), "deadline": d.map(ms) ?? .null]) })
  }

  /// The globals row, rewritten by most commits (every `scheduleLocal` moves the addition
  /// counter): with no open responses, modifications or extension responses, written
  /// straight as bytes, the same bytes as `globals(_:).encoded()` (tested); else from that
  /// value.
  static func globalsRow(_ s: CenterSnapshot) -> [UInt8] {
    guard s.openResponses.isEmpty, s.pendingModifications.isEmpty, s.pendingExtensionResponses.isEmpty else {
      return globals(s).encoded()
    }
    var o: [UInt8] = []
    o.reserveCapacity(256)
    WireBytes.key(#"{"deliverySequence":"#, &o)
    JSONWriter.appendInteger(s.deliverySequence, to: &o)
    WireBytes.key(#","additionSequence":"#, &o)
    JSONWriter.appendInteger(s.additionSequence, to: &o)
    WireBytes.key(#","responseCounter":"#, &o)
    JSONWriter.appendInteger(s.responseCounter, to: &o)
    WireBytes.key(#","pushCounter":"#, &o)
    JSONWriter.appendInteger(s.pushCounter, to: &o)
    WireBytes.key(#","modificationCounter":"#, &o)
    JSONWriter.appendInteger(s.modificationCounter, to: &o)
    WireBytes.key(s.deviceLocked ? #","deviceLocked":true"# : #","deviceLocked":false"#, &o)
    WireBytes.key(#","openResponses":[],"modifications":[],"extensionResponses":[]"#, &o)
    if let clock = s.clock {
      WireBytes.key(#","clock":"#, &o)
      JSONWriter.appendInteger(clock.milliseconds, to: &o)
    }
    if s.eventSequence > 0 {
      WireBytes.key(#","eventSequence":"#, &o)
      JSONWriter.appendInteger(s.eventSequence, to: &o)
    }
    o.append(UInt8(ascii: "}"))
    return o
  }

  static func globals(_ s: CenterSnapshot) -> JSONValue {
    var m: [JSONMember] = [
      JSONMember("deliverySequence", .int(Int(s.deliverySequence))),
      JSONMember("additionSequence", .int(Int(s.additionSequence))),
      JSONMember("responseCounter", .int(Int(s.responseCounter))), JSONMember("pushCounter", .int(Int(s.pushCounter))),
      JSONMember("modificationCounter", .int(Int(s.modificationCounter))),
      JSONMember("deviceLocked", .bool(s.deviceLocked)),
      JSONMember(
        "openResponses",
        .array(
          s.openResponses.sorted { $0.key < $1.key }.map { id, o in
            .object(["responseId": .string(id), "app": .string(o.app), "deadline": ms(o.deadline)])
          })),
      JSONMember(
        "modifications",
        .array(
          s.pendingModifications.sorted { $0.key < $1.key }.map { id, p in
            .object([
              "requestId": .string(id), "app": .string(p.app),
              "request": ModelEncoding.tree { RequestShape.encode(p.request, &$0) },
              "deadline": ms(p.deadline), "warned": .bool(p.warned),
            ])
          })),
      JSONMember(
        "extensionResponses",
        .array(
          s.pendingExtensionResponses.sorted { $0.key < $1.key }.map { id, p in
            .object([
              "responseId": .string(id), "app": .string(p.app), "prepared": prepared(p.prepared),
              "deadline": ms(p.deadline),
            ])
          })),
    ]
    if let clock = s.clock { m.append(JSONMember("clock", ms(clock))) }
    if s.eventSequence > 0 { m.append(JSONMember("eventSequence", .int(Int(s.eventSequence)))) }
    return .object(m)
  }
}
