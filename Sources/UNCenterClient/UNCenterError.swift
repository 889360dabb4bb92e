import JSONRPC

/// Why a call to the daemon failed.
///
/// Validation happens at the daemon, as it does inside iOS: an invalid trigger, an
/// unknown notification or a quota comes back as `.rpc` with the daemon's code and
/// message (for example `-32008` "time interval must be greater than 0").
public enum UNCenterError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A JSON-RPC error object returned by the daemon.
  case rpc(code: Int, message: String, data: JSONValue?)
  /// The socket could not be opened, was closed, or broke.
  case connection(String)
  /// The daemon answered with something this library cannot read.
  case invalidResponse(String)

  /// The JSON-RPC error code, for `.rpc`.
  public var code: Int? {
    if case .rpc(let code, _, _) = self { return code }
    return nil
  }

  /// The daemon's message (or the reason of a connection failure).
  public var message: String {
    switch self {
    case .rpc(_, let message, _): message
    case .connection(let reason): reason
    case .invalidResponse(let reason): reason
    }
  }

  public var description: String {
    switch self {
    case .rpc(let code, let message, _): "\(message) (\(code))"
    case .connection(let reason): "connection: \(reason)"
    case .invalidResponse(let reason): "invalid response: \(reason)"
    }
  }
}

/// The application error codes of the daemon (proto-docs/README.md, "Errors"), as
/// `UNError.Code` is on iOS.
public enum UNErrorCode {
  public static let invalidParams = -32602
  public static let noApp = -32000
  public static let accessDenied = -32001
  public static let notFound = -32003
  public static let actionUnavailable = -32004
  public static let authenticationRequired = -32005
  public static let limitExceeded = -32006
  public static let clockNotManual = -32007
  public static let invalidTrigger = -32008
  public static let invalidPayload = -32009
}
