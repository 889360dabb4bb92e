/// What `respond` reports: whether the app got `receive` now, or it was queued.
public struct RespondResult: Sendable, Hashable {
  public var responseId: String
  public var delivered: Bool
  public var queued: Bool
}

extension Center {
  /// Rule 7: the user acts on a delivered notification.
  public func respond(
    app appId: String, identifier: String, actionIdentifier: String, userText: String?,
    authenticated: Bool
  ) throws(UNError) -> RespondResult {
    guard let notification = apps[appId]?.delivered[identifier] else {
      throw .notFound(kind: "delivered notification", identifier: identifier)
    }
    var tellsApp = true
    var foreground = false
    var background = false
    switch actionIdentifier {
    case SystemAction.defaultAction:
      try Self.forbidUserText(userText, actionIdentifier)
      foreground = true
    case SystemAction.dismissAction:
      try Self.forbidUserText(userText, actionIdentifier)
      tellsApp = notification.category?.has(.customDismissAction) ?? false
    default:
      guard let action = notification.actions.first(where: { $0.identifier == actionIdentifier }) else {
        throw .actionUnavailable(
          action: actionIdentifier, reason: "not offered by notification '\(identifier)'")
      }
      if action.textInput != nil {
        guard userText != nil else {
          throw .invalidParams(field: "userText", problem: "required by text-input action '\(actionIdentifier)'")
        }
      } else {
        try Self.forbidUserText(userText, actionIdentifier)
      }
      if action.has(.authenticationRequired), deviceLocked, !authenticated {
        throw .authenticationRequired(action: actionIdentifier)
      }
      foreground = action.has(.foreground)
      background = !foreground
    }
    responseCounter += 1
    let response = NotificationResponse(
      responseId: "resp-\(responseCounter)", actionIdentifier: actionIdentifier, userText: userText,
      notification: notification)
    withApp(appId) { app in
      app.delivered[identifier] = nil
      if foreground { app.wantsForeground = true }
    }
    var fields: [(String, Event.Value)] = [
      ("identifier", .string(identifier)), ("actionIdentifier", .string(actionIdentifier)),
      ("responseId", .string(response.responseId)),
    ]
    if let userText { fields.append(("userText", .string(userText))) }
    emit(.responded, app: appId, fields)
    guard tellsApp else { return RespondResult(responseId: response.responseId, delivered: false, queued: false) }
    var deadline: Instant?
    if background {
      let d = clock.now.adding(milliseconds: configuration.backgroundActionMilliseconds)
      openResponses[response.responseId] = (appId, d)
      deadline = d
    }
    let targets = connections(of: appId)
    if targets.isEmpty {
      withApp(appId) { $0.queuedResponses.append((response, deadline)) }
      return RespondResult(responseId: response.responseId, delivered: false, queued: true)
    }
    for session in targets {
      effects.append(.callback(session, .receive(response, deadline: deadline)))
    }
    return RespondResult(responseId: response.responseId, delivered: true, queued: false)
  }

  /// `completeResponse`: the app finished handling a background action.
  public func completeResponse(app appId: String, responseId: String) throws(UNError) {
    guard let open = openResponses[responseId], open.app == appId else {
      throw .notFound(kind: "open response", identifier: responseId)
    }
    openResponses[responseId] = nil
  }

  /// The earliest background-action deadline still open.
  var nextResponseDeadline: Instant? { openResponses.values.map(\.deadline).min() }

  /// Background actions not completed by their deadline become `expired` events.
  func expireResponses(upTo limit: Instant) {
    let due = openResponses.filter { $0.value.deadline <= limit }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
    for (id, open) in due {
      openResponses[id] = nil
      emit(.expired, app: open.app, [("responseId", .string(id))])
    }
  }

  private static func forbidUserText(_ text: String?, _ action: String) throws(UNError) {
    if text != nil {
      throw .invalidParams(field: "userText", problem: "not allowed for action '\(action)' (not a text-input action)")
    }
  }
}
