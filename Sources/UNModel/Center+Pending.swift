/// What `scheduleLocal` reports.
public struct ScheduleResult: Sendable, Hashable {
  public var identifier: String
  public var scheduled: Bool
  public var replaced: Bool
  public var nextTriggerDate: Instant?
  public var warnings: [String]

  public init(identifier: String, scheduled: Bool, replaced: Bool, nextTriggerDate: Instant?, warnings: [String]) {
    self.identifier = identifier
    self.scheduled = scheduled
    self.replaced = replaced
    self.nextTriggerDate = nextTriggerDate
    self.warnings = warnings
  }
}

/// A page of pending requests and the cursor of the next page.
public struct PendingPage: Sendable {
  public var requests: [PendingRequest]
  /// (date, identifier) of the last request returned, when more follow.
  public var next: (Instant, String)?
}

extension Center {
  /// Rule 2: schedules or replaces a request.  Unknown categories and unauthorized apps
  /// are accepted as iOS accepts them, with warnings; a `nil` trigger delivers at once.
  public func schedule(app appId: String, _ request: NotificationRequest) throws(UNError) -> ScheduleResult {
    guard !request.identifier.isEmpty else {
      throw .invalidParams(field: "identifier", problem: "must be a non-empty string")
    }
    try request.content.validate()
    let now = clock.now
    let existing = apps[appId]
    let authorization = existing?.authorization ?? configuration.initialAuthorization
    let isReplacement = existing?.pending.contains(request.identifier) ?? false
    let pendingCount = existing?.pending.count ?? 0
    var warnings: [String] = []
    if let w = unknownCategoryWarning(request.content.categoryIdentifier, registered: existing?.categories ?? []) {
      warnings.append(w)
    }
    var result = ScheduleResult(
      identifier: request.identifier, scheduled: false, replaced: false, nextTriggerDate: nil, warnings: warnings)
    if authorization == .denied || authorization == .notDetermined {
      result.warnings.append(
        "not scheduled: the app's authorization is '\(authorization.rawValue)'")
      emit(.dropped, app: appId, [("identifier", .string(request.identifier)), ("reason", .string("authorization"))])
      return result
    }
    guard let trigger = request.trigger else {
      withApp(appId) { _ = $0.pending.remove(request.identifier) }
      changes.pending(appId, request.identifier)
      result.scheduled = true
      result.replaced = isReplacement
      if isReplacement { emit(.replaced, app: appId, [("identifier", .string(request.identifier))]) }
      deliver(app: appId, request, date: now, late: false)
      return result
    }
    if case .push = trigger {
      throw .invalidParams(field: "trigger.type", problem: "'push' triggers come from pushRemote only")
    }
    guard let firstDate = trigger.nextDate(anchor: now, after: now) else {
      // It replaces the pending request of the same identifier, as any new request does,
      // but is not kept itself.
      if isReplacement {
        withApp(appId) { _ = $0.pending.remove(request.identifier) }
        changes.pending(appId, request.identifier)
        result.replaced = true
      }
      result.warnings.append("not scheduled: the calendar trigger can never fire (no matching date after \(now.rfc3339))")
      emit(.dropped, app: appId, [("identifier", .string(request.identifier)), ("reason", .string("neverFires"))])
      return result
    }
    if !isReplacement, pendingCount >= configuration.effectivePendingLimit, !configuration.iosLimits {
      throw .limitExceeded(limit: "maxPendingPerApp", value: configuration.maxPendingPerApp)
    }
    additionSequence += 1
    changes.global()
    changes.pending(appId, request.identifier)
    let entry = PendingRequest(
      request: request, anchor: now, nextDate: firstDate,
      addedSequence: additionSequence)
    let dropped = withApp(appId) { app in
      app.pending.upsert(entry)
      return configuration.iosLimits ? Self.dropLeastRecentlyAdded(app, keeping: configuration.effectivePendingLimit) : []
    }
    emit(
      isReplacement ? .replaced : .scheduled, app: appId,
      [("identifier", .string(request.identifier)), ("nextTriggerDate", .date(entry.nextDate))])
    for id in dropped { changes.pending(appId, id) }
    for id in dropped { emit(.dropped, app: appId, [("identifier", .string(id)), ("reason", .string("iosLimits"))]) }
    result.scheduled = true
    result.replaced = isReplacement
    result.nextTriggerDate = entry.nextDate
    return result
  }

  /// `--ios-limits`: keeps the most recently added requests (observed iOS 18/26 behaviour).
  static func dropLeastRecentlyAdded(_ app: AppState, keeping limit: Int) -> [String] {
    var dropped: [String] = []
    while app.pending.count > limit {
      guard let oldest = app.pending.unordered.min(by: { $0.addedSequence < $1.addedSequence }) else { break }
      app.pending.remove(oldest.identifier)
      dropped.append(oldest.identifier)
    }
    return dropped
  }

  /// Pending requests by next date, then identifier; `after` is the previous page's cursor.
  public func listPending(app appId: String, after: (Instant, String)?, limit: Int?) -> PendingPage {
    guard let schedule = apps[appId]?.pending else { return PendingPage(requests: [], next: nil) }
    let (entries, more) = schedule.ordered(after: after, limit: limit ?? Int.max)
    let next = more ? entries.last.map { ($0.nextDate, $0.identifier) } : nil
    return PendingPage(requests: entries, next: next)
  }

  /// Calls `body` with the page's requests in order, without copying them; returns the
  /// cursor of the next page, when more follow.
  public func visitPending(
    app appId: String, after: (Instant, String)?, limit: Int?, _ body: (PendingRequest) -> Void
  ) -> (Instant, String)? {
    guard let schedule = apps[appId]?.pending else { return nil }
    var last: (Instant, String)?
    let more = schedule.visitOrdered(after: after, limit: limit ?? Int.max) { entry in
      last = (entry.nextDate, entry.identifier)
      body(entry)
    }
    return more ? last : nil
  }

  /// Removes the given pending requests (all when `identifiers` is nil); returns how many.
  public func removePending(app appId: String, identifiers: [String]?) -> Int {
    guard apps[appId] != nil else { return 0 }
    let removed: [String] = withApp(appId) { app in
      guard let identifiers else {
        defer { _ = app.pending.removeAll() }
        return app.pending.unordered.map(\.identifier).sorted()
      }
      return identifiers.filter { app.pending.remove($0) != nil }
    }
    for id in removed { changes.pending(appId, id) }
    if !removed.isEmpty {
      emit(.removed, app: appId, [("list", .string("pending")), ("identifiers", .strings(removed))])
    }
    return removed.count
  }
}
