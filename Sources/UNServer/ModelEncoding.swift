import JSONRPC
import UNModel

/// Model values → the wire shapes of SPEC §5 (Apple's field names, RFC 3339 dates).
enum ModelEncoding {
  static func date(_ instant: Instant) -> JSONValue { .string(instant.rfc3339) }

  /// A shape written by its byte encoder, as a tree, for the callers that still build
  /// one (callbacks, delivered rows); the bytes came from our own writer, so they parse.
  static func tree(_ write: (inout [UInt8]) -> Void) -> JSONValue {
    var bytes: [UInt8] = []
    write(&bytes)
    return
      (try? bytes.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in
        try JSONParser.parse(b)
      }) ?? .null
  }

  /// The same members as `WireBytes.content`, as a tree, from `ContentShape`.
  static func content(_ c: Content) -> JSONValue {
    var m: [JSONMember] = []
    m.reserveCapacity(ContentShape.fields.count)
    for f in ContentShape.fields {
      let value: JSONValue
      switch f.kind {
      case .text(let get, _): value = .string(get(c))
      case .optionalText(let get, _):
        guard let v = get(c) else { continue }
        value = .string(v)
      case .optionalInteger(let get, _):
        guard let v = get(c) else { continue }
        value = .int(v)
      case .integer(let get, _, _): value = .int(get(c))
      case .score(let get, _): value = .double(get(c))
      case .sound:
        guard let s = c.sound else { continue }
        value = tree { SoundShape.encode(s, &$0) }
      case .userInfo: value = userInfo(c.userInfo)
      case .interruptionLevel: value = .string(c.interruptionLevel.rawValue)
      case .attachments:
        guard !c.attachments.isEmpty else { continue }
        value = tree { AttachmentShape.encode(c.attachments, &$0) }
      }
      m.append(JSONMember(f.key, value))
    }
    return .object(m)
  }

  /// userInfo is kept as compact JSON text; it was produced by our own writer, so it parses.
  static func userInfo(_ text: JSONText, or fallback: JSONValue = .object([])) -> JSONValue {
    (try? text.bytes.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in
      try JSONParser.parse(b)
    }) ?? fallback
  }

  static func request(_ r: NotificationRequest, nextTriggerDate: Instant? = nil) -> JSONValue {
    var m: [JSONMember] = [
      JSONMember("identifier", .string(r.identifier)), JSONMember("content", content(r.content)),
      JSONMember("trigger", tree { TriggerShape.encode(r.trigger, &$0) }),
    ]
    if let next = nextTriggerDate { m.append(JSONMember("nextTriggerDate", date(next))) }
    return .object(m)
  }

  static func pending(_ p: PendingRequest) -> JSONValue { request(p.request, nextTriggerDate: p.nextDate) }

  /// A delivered notification with the actions as shown (phone unless given).
  static func notification(_ n: DeliveredNotification, actions: [Action]? = nil) -> JSONValue {
    var m: [JSONMember] = [
      JSONMember("identifier", .string(n.identifier)), JSONMember("date", date(n.date)),
      JSONMember("request", request(n.request)),
      JSONMember("actions", tree { ActionShape.encode(actions ?? n.actions, &$0) }),
    ]
    if n.late { m.append(JSONMember("late", .bool(true))) }
    return .object(m)
  }

  static func response(_ r: NotificationResponse) -> JSONValue {
    var m: [JSONMember] = [
      JSONMember("responseId", .string(r.responseId)), JSONMember("actionIdentifier", .string(r.actionIdentifier)),
    ]
    if let t = r.userText { m.append(JSONMember("userText", .string(t))) }
    m.append(JSONMember("notification", notification(r.notification)))
    return .object(m)
  }

  /// A callback as a JSON-RPC notification: method name and params.
  static func callback(_ c: Callback) -> (method: String, params: JSONValue) {
    switch c {
    case .present(let n, let actions, let presentation):
      return (
        "present",
        .object([
          "notification": notification(n, actions: actions),
          "presentation": .array(presentation.map { .string($0.rawValue) }),
        ])
      )
    case .presentForDecision(let n, let actions, let presentation, let presentationId):
      return (
        "present",
        .object([
          "notification": notification(n, actions: actions),
          "presentation": .array(presentation.map { .string($0.rawValue) }),
          "presentationId": .string(presentationId),
        ])
      )
    case .receive(let r, let deadline):
      var m: [JSONMember] = [JSONMember("response", response(r))]
      if let d = deadline { m.append(JSONMember("deadline", date(d))) }
      return ("receive", .object(m))
    case .remote(let payload):
      return ("remote", .object(["payload": userInfo(payload)]))
    case .modifyContent(let requestId, let r, let deadline):
      return (
        "modifyContent", .object(["requestId": .string(requestId), "request": request(r), "deadline": date(deadline)])
      )
    case .serviceTimeWillExpire(let requestId):
      return ("serviceTimeWillExpire", .object(["requestId": .string(requestId)]))
    case .didReceive(let n):
      return ("didReceive", .object(["notification": notification(n)]))
    case .didReceiveResponse(let responseId, let r):
      return ("didReceiveResponse", .object(["responseId": .string(responseId), "response": response(r)]))
    case .interaction(let identifier, let control, let value):
      return (
        "interaction",
        .object(["identifier": .string(identifier), "control": .string(control), "value": userInfo(value, or: .null)])
      )
    }
  }
}

extension ModelEncoding {
  static func group(_ g: DeliveredGroup) -> JSONValue {
    .object([
      "threadIdentifier": .string(g.threadIdentifier),
      "count": .int(g.count),
      "summary": .string(g.summary),
      "notifications": .array(g.notifications.map { notification($0) }),
    ])
  }
}
