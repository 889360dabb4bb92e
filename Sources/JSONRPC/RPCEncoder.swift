/// Builds JSON-RPC 2.0 response and notification objects directly into a byte buffer.
///
/// Member order is fixed (`jsonrpc`, then `id`/`method`, then `result`/`error`/`params`)
/// and no whitespace is written, so the output is byte-for-byte predictable: clients
/// and tests can compare it literally, and no intermediate `JSONValue` tree is built
/// for the envelope.
public enum RPCEncoder {
  /// Appends `{"jsonrpc":"2.0","id":<id>,"result":<result>}`.
  public static func appendResult(id: RequestID, result: JSONValue, to out: inout [UInt8]) {
    JSONWriter.appendASCII(#"{"jsonrpc":"2.0","id":"#, to: &out)
    appendID(id, to: &out)
    JSONWriter.appendASCII(#","result":"#, to: &out)
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
    JSONWriter.appendASCII(#"{"jsonrpc":"2.0","id":"#, to: &out)
    appendID(id, to: &out)
    JSONWriter.appendASCII(#","result":"#, to: &out)
    writeResult(&out)
    out.append(UInt8(ascii: "}"))
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
