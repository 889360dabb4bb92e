import JSONRPC
import UNModel

/// The one place where domain errors become JSON-RPC errors (the table in
/// proto-docs/README.md, "Errors").
public enum ErrorMapping {
  public static func rpcError(_ error: UNError) -> RPCError {
    switch error {
    case .invalidParams(let field, let problem):
      return .invalidParams(field: field, problem)
    case .noApp:
      return .application(
        .noApp, reason: "noApp", "no app: pass \"app\" or say hello with an appId on this connection")
    case .accessDenied(let app):
      return .application(
        .accessDenied, reason: "accessDenied", "access denied: app '\(app)' belongs to another user",
        extra: [JSONMember("app", .string(app))])
    case .notFound(let kind, let identifier):
      return .application(
        .notFound, reason: "notFound", "no \(kind) '\(identifier)'",
        extra: [JSONMember("identifier", .string(identifier))])
    case .actionUnavailable(let action, let reason):
      return .application(
        .actionUnavailable, reason: "actionUnavailable", "action '\(action)' is unavailable: \(reason)",
        extra: [JSONMember("action", .string(action))])
    case .authenticationRequired(let action):
      return .application(
        .authenticationRequired, reason: "authenticationRequired",
        "action '\(action)' requires authentication: the device is locked (pass \"authenticated\": true)",
        extra: [JSONMember("action", .string(action))])
    case .limitExceeded(let limit, let value):
      return .limitExceeded(limit: limit, value: value, "limit exceeded: \(limit) is \(value)")
    case .clockNotManual:
      return .application(
        .clockNotManual, reason: "clockNotManual", "the clock is real time: start uncenterd with --clock manual")
    case .invalidTrigger(let reason):
      return .application(.invalidTrigger, reason: "invalidTrigger", reason)
    case .invalidPayload(let reason):
      return .application(.invalidPayload, reason: "invalidPayload", "invalid payload: \(reason)")
    }
  }
}
