extension Center {
  /// The content extension connection serving this category for the app, if any.
  func contentExtension(app appId: String, category: String) -> SessionID? {
    sessions.filter {
      $0.value.role == .contentExtension && $0.value.appId.exactlyEquals(appId)
        && ($0.value.contentExtension?.categories.contains { $0.exactlyEquals(category) } ?? false)
    }.keys.min()
  }

  /// The extension showing this notification expanded, if it is expanded and served.
  func expandedExtension(app appId: String, identifier: String) -> SessionID? {
    guard let app = apps[appId], app.expanded.exactlyEquals(identifier), let n = app.delivered[identifier] else {
      return nil
    }
    return contentExtension(app: appId, category: n.request.content.categoryIdentifier)
  }

  /// `expand`: the user's long press.  A served category's extension gets `didReceive`;
  /// without one, the default expanded interface applies.  Returns whether an extension shows it.
  public func expand(app appId: String, identifier: String) throws(UNError) -> Bool {
    guard let n = apps[appId]?.delivered[identifier] else {
      throw .notFound(kind: "delivered notification", identifier: identifier)
    }
    withApp(appId) { $0.expanded = identifier }
    let session = contentExtension(app: appId, category: n.request.content.categoryIdentifier)
    if let session { effects.append(.callback(session, .didReceive(n))) }
    emit(.expanded, app: appId, [("identifier", .string(identifier)), ("extension", .bool(session != nil))])
    return session != nil
  }

  /// `collapse`: the expanded view is closed.
  public func collapse(app appId: String, identifier: String) throws(UNError) {
    guard let app = apps[appId], app.expanded.exactlyEquals(identifier) else {
      throw .actionUnavailable(action: "collapse", reason: "notification '\(identifier)' is not expanded")
    }
    withApp(appId) { $0.expanded = nil }
    emit(.collapsed, app: appId, [("identifier", .string(identifier))])
  }

  /// `interact`: a control of the custom view; only with `userInteractionEnabled`.
  public func interact(app appId: String, identifier: String, control: String, value: JSONText) throws(UNError) {
    guard apps[appId]?.delivered[identifier] != nil else {
      throw .notFound(kind: "delivered notification", identifier: identifier)
    }
    guard let session = expandedExtension(app: appId, identifier: identifier) else {
      throw .actionUnavailable(
        action: control, reason: "notification '\(identifier)' is not expanded in a content extension")
    }
    guard sessions[session]?.contentExtension?.userInteractionEnabled == true else {
      throw .actionUnavailable(action: control, reason: "the content extension has userInteractionEnabled false")
    }
    effects.append(.callback(session, .interaction(identifier: identifier, control: control, value: value)))
    emit(.interaction, app: appId, [("identifier", .string(identifier)), ("control", .string(control))])
  }

  /// A new notification of a served category while one is expanded: `didReceive` again.
  func notifyExpandedExtension(app appId: String, _ n: DeliveredNotification) {
    guard let app = apps[appId], let expanded = app.expanded,
      let session = contentExtension(app: appId, category: n.request.content.categoryIdentifier),
      let shown = app.delivered[expanded],
      contentExtension(app: appId, category: shown.request.content.categoryIdentifier) == session
    else { return }
    effects.append(.callback(session, .didReceive(n)))
  }

  func sendToContentExtension(_ prepared: PreparedResponse, app appId: String, session: SessionID) {
    let id = prepared.response.responseId
    pendingExtensionResponses[id] = PendingExtensionResponse(app: appId, prepared: prepared, session: session)
    agenda.add(
      .extensionResponseTimeout(responseId: id), at: clock.now.adding(milliseconds: configuration.extensionMilliseconds)
    )
    effects.append(.callback(session, .didReceiveResponse(responseId: id, response: prepared.response)))
  }

  /// `completeExtensionResponse`: the content extension's decision.
  public func completeExtensionResponse(session: SessionID, responseId: String, option: ExtensionResponseOption)
    throws(UNError) -> RespondResult
  {
    guard let pending = pendingExtensionResponses[responseId], pending.session == session else {
      throw .notFound(kind: "extension response", identifier: responseId)
    }
    pendingExtensionResponses[responseId] = nil
    agenda.remove(.extensionResponseTimeout(responseId: responseId))
    emit(
      .extensionResponse, app: pending.app,
      [("responseId", .string(responseId)), ("option", .string(option.rawValue))])
    return finish(pending, option: option)
  }

  private func finish(_ pending: PendingExtensionResponse, option: ExtensionResponseOption) -> RespondResult {
    let id = pending.prepared.response.responseId
    switch option {
    case .doNotDismiss:
      return RespondResult(responseId: id, delivered: false, queued: false)
    case .dismiss:
      var silent = pending.prepared
      silent.tellsApp = false
      return complete(silent, app: pending.app, dismiss: true)
    case .dismissAndForwardAction:
      return complete(pending.prepared, app: pending.app, dismiss: true)
    }
  }

  /// The content extension went away: what it was deciding is forwarded to the app now.
  func forwardExtensionResponses(of session: SessionID) {
    for (id, pending) in pendingExtensionResponses.sorted(by: { $0.key < $1.key }) where pending.session == session {
      agenda.remove(.extensionResponseTimeout(responseId: id))
      extensionResponseTimedOut(id)
    }
  }

  /// No answer within 30 s: the action is forwarded to the app.
  func extensionResponseTimedOut(_ responseId: String) {
    guard let pending = pendingExtensionResponses.removeValue(forKey: responseId) else { return }
    emit(
      .extensionResponse, app: pending.app,
      [("responseId", .string(responseId)), ("option", .string("dismissAndForwardAction")), ("timedOut", .bool(true))])
    _ = finish(pending, option: .dismissAndForwardAction)
  }
}

/// `UNNotificationContentExtensionResponseOption`.
public enum ExtensionResponseOption: String, Sendable, CaseIterable {
  case doNotDismiss, dismiss, dismissAndForwardAction
}
