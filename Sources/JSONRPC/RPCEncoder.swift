/// Builds JSON-RPC 2.0 response and notification objects directly into a byte buffer.
///
/// Member order is fixed (`jsonrpc`, then `id`/`method`, then `result`/`error`/`params`)
/// and no whitespace is written, so the output is byte-for-byte predictable: clients
/// and tests can compare it literally, and no intermediate `JSONValue` tree is built
/// for the envelope.
public enum RPCEncoder {
  /// Appends `{"jsonrpc":"2.0","id":<id>,"result":<result>}`.
  public static func appendResult(id: RequestID, result: JSONValue, to out: inout [UInt8]) {
    appendResultHead(id, to: &out)
    JSONWriter.append(result, to: &out)
    out.append(UInt8(ascii: "}"))
  }

  /// Appends `{"jsonrpc":"2.0","id":<id>,"result":<bytes>}` for a result already encoded
  /// (a handler that writes its result straight into bytes).
  public static func appendResult(id: RequestID, encodedResult: [UInt8], to out: inout [UInt8]) {
    appendResult(id: id, to: &out) { $0.append(contentsOf: encodedResult) }
  }

  /// Appends `{"jsonrpc":"2.0","id":<id>,"result":…}`, the result written in place by
  /// `writeResult`.
  public static func appendResult(id: RequestID, to out: inout [UInt8], _ writeResult: (inout [UInt8]) -> Void) {
    appendResultHead(id, to: &out)
    writeResult(&out)
    out.append(UInt8(ascii: "}"))
  }

  /// Appends `{"jsonrpc":"2.0","id":<id>,"result":`.  The three parts are put together
  /// on the stack and appended at once when the id is short (a number, null, or a
  /// string with nothing to escape: what clients send): each append to an array checks
  /// its uniqueness and capacity, which cost more than the copying.
  static func appendResultHead(_ id: RequestID, to out: inout [UInt8]) {
    let head: StaticString = #"{"jsonrpc":"2.0","id":"#
    let tail: StaticString = #","result":"#
    let null: StaticString = "null"
    let done: Bool? =
      switch id {
      case .number(let text):
        text.utf8.withContiguousStorageIfAvailable { appendJoined(head, $0, quoted: false, tail, to: &out) }
      case .string(let text):
        text.utf8.withContiguousStorageIfAvailable { text in
          JSONWriter.plainEnd(text, from: 0) == text.count && appendJoined(head, text, quoted: true, tail, to: &out)
        }
      case .null:
        appendJoined(
          head, UnsafeBufferPointer(start: null.utf8Start, count: null.utf8CodeUnitCount), quoted: false, tail,
          to: &out)
      }
    if done == true { return }
    JSONWriter.appendASCII(head, to: &out)
    appendID(id, to: &out)
    JSONWriter.appendASCII(tail, to: &out)
  }

  /// Appends `head`, `middle` (in quotes when `quoted`) and `tail` with one append,
  /// when they fit a small stack buffer; false (nothing appended) when they do not.
  private static func appendJoined(
    _ head: StaticString, _ middle: UnsafeBufferPointer<UInt8>, quoted: Bool, _ tail: StaticString,
    to out: inout [UInt8]
  ) -> Bool {
    let quotes = quoted ? 2 : 0
    let total = head.utf8CodeUnitCount + quotes + middle.count + tail.utf8CodeUnitCount
    guard total <= 96 else { return false }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96) { buffer in
      var at = buffer.baseAddress!
      at.update(from: head.utf8Start, count: head.utf8CodeUnitCount)
      at += head.utf8CodeUnitCount
      if quoted {
        at.pointee = UInt8(ascii: "\"")
        at += 1
      }
      if let from = middle.baseAddress, !middle.isEmpty {
        at.update(from: from, count: middle.count)
        at += middle.count
      }
      if quoted {
        at.pointee = UInt8(ascii: "\"")
        at += 1
      }
      at.update(from: tail.utf8Start, count: tail.utf8CodeUnitCount)
      out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: total))
    }
    return true
  }

  /// Appends `{"jsonrpc":"2.0","id":<id>,"error":{"code":N,"message":"…","data":…}}`,
  /// leaving `data` out when the error has none.
  public static func appendError(id: RequestID, error: RPCError, to out: inout [UInt8]) {
    JSONWriter.appendASCII(#"{"jsonrpc":"2.0","id":"#, to: &out)
    appendID(id, to: &out)
    JSONWriter.appendASCII(#","error":{"code":"#, to: &out)
    JSONWriter.appendRaw(String(error.code.rawValue), to: &out)
    JSONWriter.appendASCII(#","message":"#, to: &out)
    JSONWriter.appendString(error.message, to: &out)
    if let data = error.data {
      JSONWriter.appendASCII(#","data":"#, to: &out)
      JSONWriter.append(data, to: &out)
    }
    JSONWriter.appendASCII("}}", to: &out)
  }

  /// Appends `{"jsonrpc":"2.0","method":"…","params":…}`, leaving `params` out when nil.
  public static func appendNotification(method: String, params: JSONValue?, to out: inout [UInt8]) {
    JSONWriter.appendASCII(#"{"jsonrpc":"2.0","method":"#, to: &out)
    JSONWriter.appendString(method, to: &out)
    if let params {
      JSONWriter.appendASCII(#","params":"#, to: &out)
      JSONWriter.append(params, to: &out)
    }
    out.append(UInt8(ascii: "}"))
  }

  /// Appends a request id: a string, the number's exact text, or `null`.
  public static func appendID(_ id: RequestID, to out: inout [UInt8]) {
    switch id {
    case .string(let text): JSONWriter.appendString(text, to: &out)
    case .number(let text): JSONWriter.appendRaw(text, to: &out)
    case .null: JSONWriter.appendASCII("null", to: &out)
    }
  }

  /// Appends already-encoded entries as a batch response `[a,b,c]`.
  public static func appendBatch(_ entries: [[UInt8]], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (position, entry) in entries.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: entry)
    }
    out.append(UInt8(ascii: "]"))
  }

  /// The batch response `[a,b,c]` for already-encoded entries.
  public static func batch(_ entries: [[UInt8]]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(entries.reduce(2) { $0 + $1.count + 1 })
    appendBatch(entries, to: &out)
    return out
  }
}
