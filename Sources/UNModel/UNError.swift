/// Everything the center can refuse, as a domain error.  The server maps these to
/// JSON-RPC error objects in exactly one place; nothing in the model builds one.
public enum UNError: Error, Equatable, Sendable {
  /// A value breaks a rule: `field` is its path (`categories[0].actions[1].identifier`).
  case invalidParams(field: String, problem: String)
  /// An app-scoped call with neither an `app` param nor a `hello` naming one.
  case noApp
  /// The caller's uid does not own the app.
  case accessDenied(app: String)
  /// No such notification, request or response: `kind` says which.
  case notFound(kind: String, identifier: String)
  /// The action is not offered by this notification, or not in this state.
  case actionUnavailable(action: String, reason: String)
  /// An `authenticationRequired` action on a locked device without `authenticated: true`.
  case authenticationRequired(action: String)
  /// A quota or size limit, by name and value.
  case limitExceeded(limit: String, value: Int)
  /// `advanceClock` while the daemon runs on the real clock.
  case clockNotManual
  /// A trigger that can never be valid (Apple's reason text).
  case invalidTrigger(String)
  /// A remote payload that is not an APNs payload.
  case invalidPayload(String)
}
