import JSONRPC
import UNModel

/// `scheduleLocal` decoded straight from the message bytes: the busiest request, read
/// without building a `JSONValue` tree and then walking it.
///
/// It accepts only a well-formed single request in the common shape (method before
/// params, time-interval or no trigger, known content fields) and produces exactly what
/// `RPCDecoder` followed by `ScheduleLocal.handle`'s decoding would.  Anything else,
/// including every malformed input, returns nil and takes the general path, which
/// reports errors precisely.  The `requests` fuzz harness checks both paths agree.
struct ScheduleLocalFastPath: Equatable {
  var id: RequestID?
  var app: String?
  var request: NotificationRequest

  /// Decodes `bytes`, or nil when the general path must handle them.  `maxDepth` is the
  /// parser's nesting limit (the content sits three containers deep).
  static func decode(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> ScheduleLocalFastPath? {
    guard maxDepth >= 4 else { return nil }
    var r = JSONPullReader(bytes)
    guard r.beginDocumentObject() else { return nil }
    var first = true
    var sawVersion = false
    var sawID = false
    var sawMethod = false
    var id: RequestID?
    var decoded: ScheduleLocalFastPath?
    members: while true {
      switch r.nextMember(&first) {
      case .other: return nil
      case .end: break members
      case .name(let name):
        if name.is("jsonrpc") {
          guard !sawVersion, let v = r.plainString(), v.is("2.0") else { return nil }
          sawVersion = true
        } else if name.is("id") {
          guard !sawID, let value = requestID(&r) else { return nil }
          sawID = true
          id = value
        } else if name.is("method") {
          guard !sawMethod, let m = r.plainString(), m.is("scheduleLocal") else { return nil }
          sawMethod = true
        } else if name.is("params") {
          // The method must already be known to decode params as its own.
          guard sawMethod, decoded == nil, let p = params(&r, maxDepth: maxDepth) else { return nil }
          decoded = p
        } else {
          return nil
        }
      }
    }
    guard sawVersion, r.atEnd(), var result = decoded else { return nil }
    result.id = id
    return result
  }

  /// What the general path decodes from the same bytes, when it is a valid
  /// `scheduleLocal` (nil otherwise): the reference the fast path must match.
  static func reference(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> ScheduleLocalFastPath? {
    guard case .single(.request(let r)) = RPCDecoder.decode(bytes, maxDepth: maxDepth), r.method == ScheduleLocal.name
    else { return nil }
    do throws(RPCError) {
      let p = try Params(r.params, allowed: ScheduleLocal.fields)
      return ScheduleLocalFastPath(id: r.id, app: try p.string("app"), request: try ScheduleLocal.request(from: p))
    } catch {
      return nil
    }
  }

  private static func requestID(_ r: inout JSONPullReader) -> RequestID? {
    switch r.peek() {
    case UInt8(ascii: "\"")?: return r.string().map { .string($0) }
    case UInt8(ascii: "n")?: return r.null() ? .null : nil
    default: return r.numberText().map { .number($0) }
    }
  }

  /// `{app?, identifier, content, trigger?}`; a null app or trigger counts as absent, as
  /// `Params` reads it.
  private static func params(_ r: inout JSONPullReader, maxDepth: Int) -> ScheduleLocalFastPath? {
    guard r.beginObject() else { return nil }
    var first = true
    var seen: UInt8 = 0
    var app: String?
    var identifier: String?
    var content: Content?
    var trigger: Trigger?
    while true {
      switch r.nextMember(&first) {
      case .other:
        return nil
      case .end:
        guard let identifier, let content else { return nil }
        return ScheduleLocalFastPath(
          id: nil, app: app, request: NotificationRequest(identifier: identifier, content: content, trigger: trigger))
      case .name(let name):
        let bit: UInt8
        if name.is("app") {
          bit = 1
          if !r.null() {
            guard let s = r.string() else { return nil }
            app = s
          }
        } else if name.is("identifier") {
          bit = 2
          guard let s = r.string(), !s.isEmpty else { return nil }
          identifier = s
        } else if name.is("content") {
          bit = 4
          guard let c = self.content(&r, maxDepth: maxDepth) else { return nil }
          content = c
        } else if name.is("trigger") {
          bit = 8
          if !r.null() {
            guard let t = TriggerShape.read(&r) else { return nil }
            trigger = t
          }
        } else {
          return nil
        }
        guard seen & bit == 0 else { return nil }
        seen |= bit
      }
    }
  }
}
