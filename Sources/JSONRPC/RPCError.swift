/// A JSON-RPC error code: the standard ones and uncenter's application codes.
public struct ErrorCode: RawRepresentable, Sendable, Hashable {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  public static let parseError = ErrorCode(rawValue: -32700)
  public static let invalidRequest = ErrorCode(rawValue: -32600)
  public static let methodNotFound = ErrorCode(rawValue: -32601)
  public static let invalidParams = ErrorCode(rawValue: -32602)
  public static let internalError = ErrorCode(rawValue: -32603)
  /// LSP's `RequestCancelled`: the request was cancelled by `$/cancelRequest` before it
  /// was answered.
  public static let requestCancelled = ErrorCode(rawValue: -32800)

  // MARK: uncenter application codes (proto-docs/README.md, "Errors")
  public static let noApp = ErrorCode(rawValue: -32000)
  public static let accessDenied = ErrorCode(rawValue: -32001)
  public static let notFound = ErrorCode(rawValue: -32003)
  public static let actionUnavailable = ErrorCode(rawValue: -32004)
  public static let authenticationRequired = ErrorCode(rawValue: -32005)
  public static let limitExceeded = ErrorCode(rawValue: -32006)
  public static let clockNotManual = ErrorCode(rawValue: -32007)
  public static let invalidTrigger = ErrorCode(rawValue: -32008)
  public static let invalidPayload = ErrorCode(rawValue: -32009)
  /// The state directory refuses writes (a full or failing disk): the call would change
  /// state that cannot be made durable, so it was not run.
  public static let stateNotWritable = ErrorCode(rawValue: -32010)
}

/// The `error` member of a JSON-RPC response.
public struct RPCError: Error, Sendable, Hashable {
  public var code: ErrorCode
  public var message: String
  public var data: JSONValue?

  public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  public static func parseError(_ detail: String) -> RPCError {
    RPCError(code: .parseError, message: "Parse error: \(detail)")
  }

  public static func invalidRequest(_ detail: String) -> RPCError {
    RPCError(code: .invalidRequest, message: "Invalid Request: \(detail)")
  }

  /// `-32601`; with a `suggestion` (the method a near-miss or a foreign name most likely
  /// meant) the message asks "did you mean" and `data` names both.
  public static func methodNotFound(_ method: String, suggestion: String? = nil) -> RPCError {
    guard let suggestion else { return RPCError(code: .methodNotFound, message: "Method not found: \(method)") }
    return RPCError(
      code: .methodNotFound, message: "Method not found: \(method); did you mean '\(suggestion)'?",
      data: .object(["method": .string(method), "suggestion": .string(suggestion)]))
  }

  /// `-32800` for the request `id`, answered in its place once it was cancelled.
  public static func requestCancelled(_ id: RequestID) -> RPCError {
    RPCError(
      code: .requestCancelled, message: "Request cancelled: \(String(decoding: id.json.encoded(), as: UTF8.self))",
      data: .object(["id": id.json]))
  }

  /// `-32602` naming the offending field: `field` is a path such as `content.badge`
  /// (empty for the params object itself).
  public static func invalidParams(field: String, _ problem: String) -> RPCError {
    let subject = field.isEmpty ? "params" : field
    return RPCError(
      code: .invalidParams, message: "Invalid params: \(subject): \(problem)",
      data: .object(["field": .string(subject), "problem": .string(problem)]))
  }

  public static func internalError(_ detail: String) -> RPCError {
    RPCError(code: .internalError, message: "Internal error: \(detail)")
  }

  /// An application error with `data.reason` set to the error's name.
  public static func application(
    _ code: ErrorCode, reason: String, _ message: String, extra: [JSONMember] = []
  ) -> RPCError {
    RPCError(code: code, message: message, data: .object([JSONMember("reason", .string(reason))] + extra))
  }

  /// `-32010`: the change cannot be made durable; names the directory and the system's error.
  public static func stateNotWritable(directory: String, _ error: String) -> RPCError {
    application(
      .stateNotWritable, reason: "stateNotWritable",
      "state not writable: \(directory): \(error); nothing was changed, retry later",
      extra: [JSONMember("directory", .string(directory)), JSONMember("error", .string(error))])
  }

  /// `-32006` for a quota or size limit, naming it and its value.
  public static func limitExceeded(limit: String, value: Int, _ message: String) -> RPCError {
    application(
      .limitExceeded, reason: "limitExceeded", message,
      extra: [JSONMember("limit", .string(limit)), JSONMember("value", .int(value))])
  }
}
