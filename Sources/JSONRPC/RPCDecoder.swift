/// Turns one JSON text into JSON-RPC 2.0 requests, or into the errors to send back.
///
/// Decoding never throws: every problem becomes an `.invalid` entry so the server can
/// answer it in the right place (inside a batch or on its own).  The rules are those of
/// JSON-RPC 2.0 made strict by uncenter's spec:
///
/// - invalid JSON → `-32700`, id null;
/// - a top-level value that is neither object nor array → `-32600`, id null;
/// - `[]` → a single `-32600` "empty batch" (one error object, not an array);
/// - a non-empty array is a batch; each entry is validated on its own, and a
///   non-object entry → `-32600`, id null;
/// - a request needs `"jsonrpc": "2.0"` exactly and a string `method`; `id`, when
///   present, is a string, number or null; `params`, when present, is an object, an
///   array (arrays pass so the server can answer `-32602` by name) or null;
/// - `params: null` and `params: []` mean no params, as an absent `params` does: client
///   libraries send them for calls without params;
/// - unknown or duplicated members, and response-shaped objects (`result`/`error`),
///   → `-32600`.
///
/// Whenever a valid id could be read, the error carries it so the client can match the
/// answer; otherwise the id is null.  A missing `id` makes a valid request a
/// notification, but an invalid entry is still reported (with id null): whether to
/// answer it is the server's decision.
public enum RPCDecoder {
  /// Parses and decodes one JSON text.
  public static func decode(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = 512) -> Incoming {
    do {
      return decode(value: try JSONParser.parse(bytes, maxDepth: maxDepth))
    } catch {
      return .single(.invalid(id: .null, error: .parseError(error.reason)))
    }
  }

  /// Parses and decodes one JSON text held in an array.
  public static func decode(_ bytes: [UInt8], maxDepth: Int = 512) -> Incoming {
    bytes.withUnsafeBytes { decode($0, maxDepth: maxDepth) }
  }

  /// Decodes an already parsed JSON text.
  public static func decode(value: JSONValue) -> Incoming {
    switch value {
    case .object(let members):
      return .single(entry(members))
    case .array(let elements):
      guard !elements.isEmpty else { return .single(.invalid(id: .null, error: .invalidRequest("empty batch"))) }
      return .batch(elements.map(entry(_:)))
    default:
      return .single(
        .invalid(id: .null, error: .invalidRequest("expected an object or an array, got \(value.typeName)")))
    }
  }

  /// Validates one batch element or top-level object.
  public static func entry(_ value: JSONValue) -> Incoming.Entry {
    guard case .object(let members) = value else {
      return .invalid(id: .null, error: .invalidRequest("expected a request object, got \(value.typeName)"))
    }
    return entry(members)
  }

  /// Validates one request object's members.
  static func entry(_ members: [JSONMember]) -> Incoming.Entry {
    var version: JSONValue?
    var idValue: JSONValue?
    var method: JSONValue?
    var params: JSONValue?
    var idCount = 0
    var duplicate: String?
    var unknown: String?
    var responseShaped = false
    for member in members {
      switch member.name {
      case "jsonrpc":
        if version != nil { duplicate = duplicate ?? member.name }
        version = member.value
      case "id":
        idCount += 1
        if idValue != nil { duplicate = duplicate ?? member.name }
        idValue = member.value
      case "method":
        if method != nil { duplicate = duplicate ?? member.name }
        method = member.value
      case "params":
        if params != nil { duplicate = duplicate ?? member.name }
        params = member.value
      case "result", "error":
        responseShaped = true
      default:
        unknown = unknown ?? member.name
      }
    }

    // The id to report errors with: only an unambiguous, well-typed one.
    var id: RequestID?
    if idCount == 1, let idValue { id = requestID(idValue) }
    let replyID = id ?? .null
    func invalid(_ detail: String) -> Incoming.Entry {
      .invalid(id: replyID, error: .invalidRequest(detail))
    }

    if responseShaped { return invalid("a response object (with 'result' or 'error') is not a request") }
    if let duplicate { return invalid("duplicate member '\(duplicate)'") }
    if let unknown { return invalid("unknown member '\(unknown)'") }
    guard let version else { return invalid("missing 'jsonrpc'") }
    guard case .string("2.0") = version else { return invalid("'jsonrpc' must be \"2.0\"") }
    if idValue != nil, id == nil { return invalid("'id' must be a string, a number or null") }
    guard let method else { return invalid("missing 'method'") }
    guard case .string(let methodName) = method else { return invalid("'method' must be a string") }
    if let params {
      switch params {
      case .object, .array, .null: break
      default: return invalid("'params' must be an object or an array, got \(params.typeName)")
      }
    }
    return .request(Request(id: id, method: methodName, params: params.flatMap(paramsValue)))
  }

  /// What a `params` member that is an object, an array or null stands for: nil (no
  /// params) for `null` and `[]`, else the value itself.  Shared with the server's
  /// envelope reader so that both read `params` alike.
  public static func paramsValue(_ value: JSONValue) -> JSONValue? {
    switch value {
    case .null: nil
    case .array(let elements) where elements.isEmpty: nil
    default: value
    }
  }

  /// The request id held by `value`, when it has an id's type.
  static func requestID(_ value: JSONValue) -> RequestID? {
    switch value {
    case .string(let text): .string(text)
    case .number(let text): .number(text)
    case .null: .null
    default: nil
    }
  }
}
