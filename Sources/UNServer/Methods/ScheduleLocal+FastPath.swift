import JSONRPC
import UNModel

/// `scheduleLocal` decoded straight from the message bytes: the busiest request, read
/// without building a `JSONValue` tree and then walking it.
///
/// It accepts only a well-formed single request in the common shape (method before
/// params, time-interval or no trigger, known content fields; `RequestFastPath` reads the
/// envelope around them) and produces exactly what
/// `RPCDecoder` followed by `ScheduleLocal.handle`'s decoding would.  Anything else,
/// including every malformed input, returns nil and takes the general path, which
/// reports errors precisely.  The `requests` fuzz harness checks both paths agree.
struct ScheduleLocalFastPath: Equatable {
  var id: RequestID?
  var app: String?
  var request: NotificationRequest

  /// Decodes `bytes` when they are a `scheduleLocal` in this shape, or nil when the
  /// general path must handle them (`RequestFastPath` reads the envelope).
  static func decode(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> ScheduleLocalFastPath? {
    guard case .scheduleLocal(let decoded) = RequestFastPath.decode(bytes, maxDepth: maxDepth) else { return nil }
    return decoded
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

  /// `{app?, identifier, content, trigger?}`; a null app or trigger counts as absent, as
  /// `Params` reads it.
  static func params(_ r: inout JSONPullReader, maxDepth: Int) -> ScheduleLocalFastPath? {
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
