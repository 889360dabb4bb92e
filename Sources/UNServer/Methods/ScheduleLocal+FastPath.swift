import JSONRPC
import UNModel
import UNProtocol

/// `scheduleLocal` decoded straight from the message bytes: the busiest request, read
/// without building a `JSONValue` tree and then walking it.
///
/// It accepts only a well-formed single request in the common shape (method before
/// params, time-interval or no trigger, known content fields; `RequestFastPath` reads the
/// envelope around them) and produces exactly what
/// `RPCDecoder` followed by `ScheduleLocal.handle`'s decoding would.  Anything else,
/// including every malformed input, returns nil and takes the general path, which
/// reports errors precisely.  The `requests` fuzz harness checks both paths agree.
///
/// This is the decoded request as a value of its own (the tests and the fuzz harness
/// compare it); the server runs the `ScheduleLocalCall` it is made from.
struct ScheduleLocalFastPath: Equatable {
  var id: RequestID?
  var app: String?
  var request: NotificationRequest

  /// Decodes `bytes` when they are a `scheduleLocal` in this shape, or nil when the
  /// general path must handle them (`RequestFastPath` reads the envelope).
  static func decode(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> ScheduleLocalFastPath? {
    guard case .scheduleLocal(let call) = RequestFastPath.decode(bytes, maxDepth: maxDepth) else { return nil }
    return call.decoded
  }

  /// Equal when the app and every text are the same bytes: the model's `==` compares
  /// strings by canonical equivalence, which would pass a path that normalized an
  /// identifier (the tests and the fuzz harness compare the two paths with this).
  static func == (a: ScheduleLocalFastPath, b: ScheduleLocalFastPath) -> Bool {
    guard a.id == b.id, a.app.exactlyEquals(b.app), a.request == b.request else { return false }
    var x: [UInt8] = []
    var y: [UInt8] = []
    RequestShape.encode(a.request, &x)
    RequestShape.encode(b.request, &y)
    return x == y
  }

  /// What the general path decodes from the same bytes, when it is a valid
  /// `scheduleLocal` (nil otherwise): the reference the fast path must match.
  static func reference(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> ScheduleLocalFastPath? {
    guard case .single(.request(let r)) = RPCDecoder.decode(bytes, maxDepth: maxDepth), r.method == ScheduleLocal.name
    else { return nil }
    do throws(RPCError) {
      let p = try Params(r.params, allowed: ScheduleLocal.fields)
      return ScheduleLocalFastPath(id: r.id, app: try p.identifier("app"), request: try ScheduleLocal.request(from: p))
    } catch {
      return nil
    }
  }
}

/// A `scheduleLocal` as the fast path read it: the content's texts that need no decoding
/// are borrowed from the message (`BorrowedRequest`), so it is valid only while the
/// message is, and is run before the next one is read.
struct ScheduleLocalCall: Equatable {
  var id: RequestID?
  var app: String?
  var request: BorrowedRequest

  /// An empty request for `readParams` to fill.  Copied from a constant: building one
  /// compiled to a build, a copy and a destroy of each level, on every request; the copy of
  /// this one is a few retains of constants (see BENCHMARKS.md).  `nonisolated(unsafe)`: a
  /// constant that borrows nothing (no pointer in it), only ever copied.
  nonisolated(unsafe) static let empty = ScheduleLocalCall(
    id: nil, app: nil, request: BorrowedRequest(identifier: "", content: Content(), trigger: nil))

  /// Back to `empty` but for the id and identifier, which `RequestFastPath.read` always
  /// sets: the app, trigger and content are optional in the params.
  mutating func reset() {
    app = nil
    request.reset()
  }

  /// The request with every text a value of its own.
  var decoded: ScheduleLocalFastPath { ScheduleLocalFastPath(id: id, app: app, request: request.request) }

  static func == (a: ScheduleLocalCall, b: ScheduleLocalCall) -> Bool { a.decoded == b.decoded }

  /// `{app?, identifier, content, trigger?}` read into this value, which starts empty; a
  /// null app or trigger counts as absent, as `Params` reads it.  False sends the
  /// request to the general path.
  mutating func readParams(_ r: inout JSONPullReader, maxDepth: Int) -> Bool {
    guard r.beginObject() else { return false }
    var first = true
    var seen: UInt8 = 0
    // The member read last: the next is guessed in the usual order.
    var last: UInt8 = 0
    while true {
      let member: JSONPullReader.Member
      switch last {
      case 0: member = r.nextMember(&first, likely: "app")
      case 1: member = r.nextMember(&first, likely: "identifier")
      case 2: member = r.nextMember(&first, likely: "content")
      case 4: member = r.nextMember(&first, likely: "trigger")
      default: member = r.nextMember(&first)
      }
      switch member {
      case .other:
        return false
      case .end:
        // The identifier and the content are required.
        return seen & 6 == 6
      case .name(let name):
        let bit: UInt8
        if name.is("app") {
          bit = 1
        } else if name.is("identifier") {
          bit = 2
        } else if name.is("content") {
          bit = 4
        } else if name.is("trigger") {
          bit = 8
        } else {
          return false
        }
        guard seen & bit == 0 else { return false }
        seen |= bit
        last = bit
        switch bit {
        // An app id or identifier with U+0000 is refused by the general path.
        case 1:
          if !r.null() {
            guard let s = r.stringWithoutNUL() else { return false }
            app = s
          }
        case 2:
          guard let s = r.stringWithoutNUL(), !s.isEmpty else { return false }
          request.identifier = s
        case 4:
          guard ScheduleLocalFastPath.readContent(&r, into: &request, maxDepth: maxDepth) else { return false }
        default:
          if !r.null() {
            guard let t = TriggerShape.read(&r) else { return false }
            request.trigger = t
          }
        }
      }
    }
  }
}
