/// What `respond` reports: whether the app got `receive` now, or it was queued, or the
/// response went to the content extension first.
public struct RespondResult: Sendable, Hashable {
  public var responseId: String
  public var delivered: Bool
  public var queued: Bool
  /// The notification was expanded with a content extension: it decides first.
  public var toExtension = false
}

/// A validated response and what it does (rule 7), before anyone is told.
public struct PreparedResponse: Sendable, Hashable {
  public var response: NotificationResponse
  /// False for a dismiss without `customDismissAction`.
  public var tellsApp: Bool
  public var foreground: Bool
  /// An action without `.foreground`: the app has 30 s to `completeResponse`.
  public var background: Bool

  public init(response: NotificationResponse, tellsApp: Bool, foreground: Bool, background: Bool) {
    self.response = response
    self.tellsApp = tellsApp
    self.foreground = foreground
    self.background = background
  }
}

extension Center {
  /// Rule 7: the user acts on a delivered notification.
  public func respond(
    app appId: String, identifier: String, actionIdentifier: String, userText: String?,
    authenticated: Bool
  ) throws(UNError) -> RespondResult {
    let prepared = try prepareResponse(
      app: appId, identifier: identifier, actionIdentifier: actionIdentifier, userText: userText,
      authenticated: authenticated)
    var fields: [(String, Event.Value)] = [
      ("identifier", .string(identifier)), ("actionIdentifier", .string(actionIdentifier)),
      ("responseId", .string(prepared.response.responseId)),
    ]
    if let userText { fields.append(("userText", .string(userText))) }
    if let session = expandedExtension(app: appId, identifier: identifier) {
      fields.append(("toExtension", .bool(true)))
      emit(.responded, app: appId, fields)
      sendToContentExtension(prepared, app: appId, session: session)
      return RespondResult(responseId: prepared.response.responseId, delivered: false, queued: false, toExtension: true)
    }
    emit(.responded, app: appId, fields)
    return complete(prepared, app: appId, dismiss: true)
  }

  func prepareResponse(
    app appId: String, identifier: String, actionIdentifier: String, userText: String?, authenticated: Bool
  ) throws(UNError) -> PreparedResponse {
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
      guard let action = notification.actions.first(where: { $0.identifier.exactlyEquals(actionIdentifier) }) else {
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
    counters.response += 1
    let response = NotificationResponse(
      responseId: "resp-\(counters.response)", actionIdentifier: actionIdentifier, userText: userText,
      notification: notification)
    return PreparedResponse(response: response, tellsApp: tellsApp, foreground: foreground, background: background)
  }

  /// Removes the notification (when `dismiss`) and tells the app: `receive` to its
  /// connections, or queued until one says hello.
  func complete(_ prepared: PreparedResponse, app appId: String, dismiss: Bool) -> RespondResult {
    let response = prepared.response
    withApp(appId) { app in
      if dismiss {
        app.setDelivered(response.notification.identifier, nil)
        if app.expanded.exactlyEquals(response.notification.identifier) { app.expanded = nil }
      }
      if prepared.foreground { app.wantsForeground = true }
    }
    guard prepared.tellsApp else {
      return RespondResult(responseId: response.responseId, delivered: false, queued: false)
    }
    var deadline: Instant?
    if prepared.background {
      let d = clock.now.adding(milliseconds: configuration.backgroundActionMilliseconds)
      openResponses[response.responseId] = (appId, d)
      agenda.add(.responseDeadline(responseId: response.responseId), at: d)
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
    guard let open = openResponses[responseId], open.app.exactlyEquals(appId) else {
      throw .notFound(kind: "open response", identifier: responseId)
    }
    openResponses[responseId] = nil
    agenda.remove(.responseDeadline(responseId: responseId))
  }

  /// A background action not completed by its deadline becomes an `expired` event.
  func expireResponse(_ responseId: String) {
    guard let open = openResponses.removeValue(forKey: responseId) else { return }
    emit(.expired, app: open.app, [("responseId", .string(responseId))])
  }

  private static func forbidUserText(_ text: String?, _ action: String) throws(UNError) {
    if text != nil {
      throw .invalidParams(field: "userText", problem: "not allowed for action '\(action)' (not a text-input action)")
    }
  }
}
