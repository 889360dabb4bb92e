import JSONRPC

/// A single request read straight from its bytes by the pull reader: the envelope
/// (`jsonrpc`, `id`, `method`) without a `JSONValue` tree, `params` as a tree only when
/// it is there, and `scheduleLocal`'s params decoded into the model directly.  Most
/// requests are single objects in this shape, and building the envelope's tree was a
/// large part of a `ping`'s work (see BENCHMARKS.md).
///
/// It accepts only a well-formed request with exactly the members `RPCDecoder` allows,
/// each once, and decodes the same `Request` it would (the `requests` fuzz harness
/// checks this).  Anything else, including every malformed or invalid input and every
/// batch, is `.declined` and takes the general path, which reports errors precisely.
enum RequestFastPath: Equatable {
  /// Borrows texts from the decoded bytes: run it while they are at hand.
  case scheduleLocal(ScheduleLocalCall)
  case request(Request)
  /// Not in the shape this path reads: the general path decodes the bytes.  A case of
  /// its own rather than an optional: the server destroyed an `Optional` of this enum
  /// through the generic value witnesses, on every request (see BENCHMARKS.md).
  case declined

  /// Decodes `bytes`, or `.declined` when the general path must handle them.  `maxDepth` is the
  /// parser's nesting limit (the envelope is the first container).
  static func decode(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> RequestFastPath {
    var call = ScheduleLocalCall.empty
    switch read(bytes, maxDepth: maxDepth, scheduleLocal: &call) {
    case .scheduleLocal: return .scheduleLocal(call)
    case .request(let request): return .request(request)
    case .declined: return .declined
    }
  }

  /// What `read` found.
  enum Read {
    /// A `scheduleLocal`, read into the call passed in.
    case scheduleLocal
    case request(Request)
    case declined
  }

  /// `decode` for the server: a `scheduleLocal` is read into `call`, a value the server
  /// keeps for the messages of a read and passes in each time, instead of a new one moved
  /// out inside the result.  Copying a new call from a constant, moving it into the result
  /// and out again, and destroying the result through the enum's value witnesses showed in
  /// every request's profile; here only the fields are assigned (see BENCHMARKS.md).
  /// `call` is left in any state when the message is not a `scheduleLocal`.
  static func read(
    _ bytes: UnsafeRawBufferPointer, maxDepth: Int, scheduleLocal call: inout ScheduleLocalCall
  ) -> Read {
    // scheduleLocal's content sits three containers deep; smaller limits are left to the
    // parser's own checks.
    guard maxDepth >= 4 else { return .declined }
    var r = JSONPullReader(bytes)
    guard r.beginDocumentObject() else { return .declined }
    var first = true
    var envelope = Envelope()
    var sawParams = false
    var params: JSONValue?
    // Members read so far: the next is guessed in the order clients usually send them.
    var count = 0
    members: while true {
      let member: JSONPullReader.Member
      switch count {
      case 0: member = r.nextMember(&first, likely: "jsonrpc")
      case 1: member = r.nextMember(&first, likely: "id")
      case 2: member = r.nextMember(&first, likely: "method")
      case 3: member = r.nextMember(&first, likely: "params")
      default: member = r.nextMember(&first)
      }
      count += 1
      switch member {
      case .other: return .declined
      case .end: break members
      case .name(let name):
        if name.is("params") {
          guard !sawParams else { return .declined }
          sawParams = true
          if envelope.isScheduleLocal {
            // The rest is the params, read into `call`, and then only `jsonrpc` or `id`.
            call.reset()
            guard call.readParams(&r, maxDepth: maxDepth), envelope.readRest(&r, &first) else { return .declined }
            call.id = envelope.id.take()
            return .scheduleLocal
          }
          // An object, an array or null, as `RPCDecoder` requires; one level below the
          // envelope.  Null and `[]` are no params, as there.
          guard let b = r.peek(), b == UInt8(ascii: "{") || b == UInt8(ascii: "[") || b == UInt8(ascii: "n"),
            let value = r.value(maxDepth: maxDepth - 1)
          else { return .declined }
          params = b == UInt8(ascii: "{") ? value : RPCDecoder.paramsValue(value)
        } else {
          guard envelope.read(name, &r) else { return .declined }
        }
      }
    }
    guard envelope.sawVersion, r.atEnd(), let method = envelope.method else { return .declined }
    return .request(Request(id: envelope.id, method: method, params: params))
  }

  /// The envelope's members other than `params`, as read so far.
  private struct Envelope {
    var sawVersion = false
    var sawID = false
    var id: RequestID?
    var method: String?
    var isScheduleLocal = false

    /// The members after `params` (only `jsonrpc` or `id` may follow) and the end of
    /// the envelope and of the message; false for anything else.
    mutating func readRest(_ r: inout JSONPullReader, _ first: inout Bool) -> Bool {
      while true {
        switch r.nextMember(&first) {
        case .other: return false
        case .end: return sawVersion && r.atEnd()
        case .name(let name): guard !name.is("params"), read(name, &r) else { return false }
        }
      }
    }

    /// Reads the value of `jsonrpc`, `id` or `method`; false for any other name, a
    /// repeated member or a value the general path must judge.
    mutating func read(_ name: JSONPullReader.Name, _ r: inout JSONPullReader) -> Bool {
      if name.is("jsonrpc") {
        guard !sawVersion, let v = r.plainString(), v.is("2.0") else { return false }
        sawVersion = true
      } else if name.is("id") {
        guard !sawID, let value = RequestFastPath.requestID(&r) else { return false }
        sawID = true
        id = value
      } else if name.is("method") {
        // Spelled without escapes (no method name needs one): its bytes are its text.
        guard method == nil, let m = r.plainString() else { return false }
        if m.is("scheduleLocal") {
          // The constant, not a string built from the bytes.
          method = ScheduleLocal.name
          isScheduleLocal = true
        } else {
          method = m.text
        }
      } else {
        return false
      }
      return true
    }
  }

  private static func requestID(_ r: inout JSONPullReader) -> RequestID? {
    switch r.peek() {
    case UInt8(ascii: "\"")?: return r.string().map { .string($0) }
    case UInt8(ascii: "n")?: return r.null() ? .null : nil
    default: return r.numberText().map { .number($0) }
    }
  }
}
