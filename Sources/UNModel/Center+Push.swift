extension Center {
  /// `pushRemote`: delivers an APNs payload at once, like `xcrun simctl push`
  /// (proto-docs/README.md, "Remote payloads").
  /// A silent push reaches the app's connections as `remote`; a mutable one with an
  /// alert goes to a connected service extension first.  Returns whether the notification
  /// was delivered now.
  public func pushRemote(app appId: String, _ push: RemotePush, identifier: String?) throws(UNError) -> (
    identifier: String, delivered: Bool
  ) {
    try push.content.validate()
    counters.push += 1
    let id = identifier ?? "push-\(counters.push)"
    guard !id.isEmpty else { throw .invalidParams(field: "identifier", problem: "must be a non-empty string") }
    if let event = push.liveActivityEvent {
      // ActivityKit's, not Notification Center's: recorded, not shown.
      emit(
        .pushed, app: appId, [("identifier", .string(id)), ("silent", .bool(false)), ("liveActivity", .string(event))])
      return (id, false)
    }
    emit(.pushed, app: appId, [("identifier", .string(id)), ("silent", .bool(push.silent))])
    if push.silent {
      wake(appId, push, identifier: id)
      return (id, false)
    }
    let content = localize(push.content, push.localization, app: appId)
    let request = NotificationRequest(identifier: id, content: content, trigger: .push)
    // `content-available` with an alert: iOS shows the alert and also wakes the app.
    defer { if push.contentAvailable { wake(appId, push, identifier: id) } }
    if push.mutableContent, content.hasAlertText, let session = serviceExtension(of: appId) {
      counters.modification += 1
      let requestId = "mod-\(counters.modification)"
      let deadline = clock.now.adding(milliseconds: configuration.extensionMilliseconds)
      pendingModifications[requestId] = PendingModification(
        requestId: requestId, app: appId, request: request, session: session, deadline: deadline)
      agenda.add(.serviceWillExpire(requestId: requestId), at: deadline)
      effects.append(.callback(session, .modifyContent(requestId: requestId, request: request, deadline: deadline)))
      emit(.modifying, app: appId, [("identifier", .string(id)), ("requestId", .string(requestId))])
      return (id, false)
    }
    return (id, deliver(app: appId, request, date: clock.now, late: false))
  }

  /// `content-available`: the app's connections get `remote` (didReceiveRemoteNotification).
  private func wake(_ appId: String, _ push: RemotePush, identifier id: String) {
    let targets = connections(of: appId)
    for session in targets { effects.append(.callback(session, .remote(payload: push.payload))) }
    emit(.remote, app: appId, [("identifier", .string(id)), ("connections", .int(targets.count))])
  }

  /// The app's first connected service extension.
  func serviceExtension(of appId: String) -> SessionID? {
    sessions.filter { $0.value.role == .serviceExtension && $0.value.appId.exactlyEquals(appId) }.keys.min()
  }

  /// `completeContent`: the service extension's modified content.  Content without alert
  /// text is ignored and the original delivered, as iOS does.
  public func completeContent(session: SessionID, requestId: String, content: Content?) throws(UNError) -> Bool {
    guard let pending = pendingModifications[requestId], pending.session == session else {
      throw .notFound(kind: "content modification request", identifier: requestId)
    }
    if let content { try content.validate() }
    pendingModifications[requestId] = nil
    agenda.remove(.serviceWillExpire(requestId: requestId))
    agenda.remove(.serviceTimeout(requestId: requestId))
    var request = pending.request
    let modified = content?.hasAlertText ?? false
    if modified, var replacement = content {
      if replacement.userInfo == .emptyObject { replacement.userInfo = request.content.userInfo }
      request.content = replacement
    }
    emit(.modified, app: pending.app, [("identifier", .string(request.identifier)), ("modified", .bool(modified))])
    deliver(app: pending.app, request, date: clock.now, late: false)
    return modified
  }

  /// The service extension ran out of time: warn it, then deliver the original a second later.
  func serviceDeadlinePassed(_ requestId: String, final: Bool) {
    guard var pending = pendingModifications[requestId] else { return }
    if !final {
      pending.warned = true
      pending.deadline = clock.now.adding(milliseconds: 1000)
      pendingModifications[requestId] = pending
      effects.append(.callback(pending.session, .serviceTimeWillExpire(requestId: requestId)))
      agenda.add(.serviceTimeout(requestId: requestId), at: pending.deadline)
      return
    }
    pendingModifications[requestId] = nil
    emit(
      .modified, app: pending.app, [("identifier", .string(pending.request.identifier)), ("modified", .bool(false))])
    deliver(app: pending.app, pending.request, date: clock.now, late: false)
  }

  /// Runs one timed item of the agenda.
  func perform(_ item: Agenda.Item) {
    switch item {
    case .responseDeadline(let id): expireResponse(id)
    case .serviceWillExpire(let id): serviceDeadlinePassed(id, final: false)
    case .serviceTimeout(let id): serviceDeadlinePassed(id, final: true)
    case .extensionResponseTimeout(let id): extensionResponseTimedOut(id)
    }
  }

  /// A service extension went away: what it was modifying is delivered as it was.
  func releaseModifications(of session: SessionID) {
    for (id, pending) in pendingModifications.sorted(by: { $0.key < $1.key }) where pending.session == session {
      agenda.remove(.serviceWillExpire(requestId: id))
      agenda.remove(.serviceTimeout(requestId: id))
      pendingModifications[id] = nil
      emit(
        .modified, app: pending.app, [("identifier", .string(pending.request.identifier)), ("modified", .bool(false))])
      deliver(app: pending.app, pending.request, date: clock.now, late: false)
    }
  }
}
