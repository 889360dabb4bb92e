import JSONRPC

/// A single request read straight from its bytes by the pull reader: the envelope
/// (`jsonrpc`, `id`, `method`) without a `JSONValue` tree, `params` as a tree only when
/// it is there, and `scheduleLocal`'s params decoded into the model directly.  Most
/// requests are single objects in this shape, and the tree of the envelope was a third of
/// a `ping`'s instructions.
///
/// It accepts only a well-formed request with exactly the members `RPCDecoder` allows,
/// each once, and decodes the same `Request` it would (the `requests` fuzz harness
/// checks this).  Anything else, including every malformed or invalid input and every
/// batch, is `.declined` and takes the general path, which reports errors precisely.
enum RequestFastPath: Equatable {
  case scheduleLocal(ScheduleLocalFastPath)
  case request(Request)
  /// Not in the shape this path reads: the general path decodes the bytes.  A case of
  /// its own rather than an optional: the server destroyed an `Optional` of this enum
  /// through the generic value witnesses (about 700 instructions a request).
  case declined

  /// Decodes `bytes`, or `.declined` when the general path must handle them.  `maxDepth` is the
  /// parser's nesting limit (the envelope is the first container).
  static func decode(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) -> RequestFastPath {
    // scheduleLocal's content sits three containers deep; smaller limits are left to the
    // parser's own checks.
    guard maxDepth >= 4 else { return .declined }
    var r = JSONPullReader(bytes)
    guard r.beginDocumentObject() else { return .declined }
    var first = true
    var sawVersion = false
    var sawID = false
    var sawParams = false
    var id: RequestID?
    var method: String?
    var params: JSONValue?
    var schedule: ScheduleLocalFastPath?
    members: while true {
      switch r.nextMember(&first) {
      case .other: return .declined
      case .end: break members
      case .name(let name):
        if name.is("jsonrpc") {
          guard !sawVersion, let v = r.plainString(), v.is("2.0") else { return .declined }
          sawVersion = true
        } else if name.is("id") {
          guard !sawID, let value = requestID(&r) else { return .declined }
          sawID = true
          id = value
        } else if name.is("method") {
          // Spelled without escapes (no method name needs one): its bytes are its text.
          guard method == nil, let m = r.plainString() else { return .declined }
          method = m.text
        } else if name.is("params") {
          guard !sawParams else { return .declined }
          sawParams = true
          if method == ScheduleLocal.name {
            guard let p = ScheduleLocalFastPath.params(&r, maxDepth: maxDepth) else { return .declined }
            schedule = p
          } else {
            // An object or an array, as `RPCDecoder` requires; one level below the envelope.
            guard let b = r.peek(), b == UInt8(ascii: "{") || b == UInt8(ascii: "["),
              let value = r.value(maxDepth: maxDepth - 1)
            else { return .declined }
            params = value
          }
        } else {
          return .declined
        }
      }
    }
    guard sawVersion, r.atEnd(), let method else { return .declined }
    if schedule != nil {
      // Set in place and moved out: `if var` copied the request and then released the
      // original (~500 instructions a request).
      schedule!.id = id
      return .scheduleLocal(schedule.take()!)
    }
    return .request(Request(id: id, method: method, params: params))
  }

  private static func requestID(_ r: inout JSONPullReader) -> RequestID? {
    switch r.peek() {
    case UInt8(ascii: "\"")?: return r.string().map { .string($0) }
    case UInt8(ascii: "n")?: return r.null() ? .null : nil
    default: return r.numberText().map { .number($0) }
    }
  }
}
