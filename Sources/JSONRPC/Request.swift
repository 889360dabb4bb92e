/// A JSON-RPC request id: a string, a number (kept as its exact text) or null.
public enum RequestID: Sendable, Hashable {
  case string(String)
  case number(String)
  case null

  public var json: JSONValue {
    switch self {
    case .string(let s): .string(s)
    case .number(let n): .number(n)
    case .null: .null
    }
  }
}

/// A request or notification received from a client.  `id == nil` is a notification,
/// which is never answered.
public struct Request: Sendable, Hashable {
  public var id: RequestID?
  public var method: String
  /// The `params` member as sent; nil when it is absent, `null` or `[]`.  Other arrays
  /// are refused by the server.
  public var params: JSONValue?

  public init(id: RequestID?, method: String, params: JSONValue?) {
    self.id = id
    self.method = method
    self.params = params
  }

  public var isNotification: Bool { id == nil }
}

/// What one decoded JSON text holds: a single entry or a batch of entries.  An entry
/// that is not a valid request becomes an error to send back (with the id when one
/// could be read).
public enum Incoming: Sendable, Hashable {
  case single(Entry)
  case batch([Entry])

  public enum Entry: Sendable, Hashable {
    case request(Request)
    case invalid(id: RequestID, error: RPCError)
  }
}
