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
    try scheduleRequest(app: appId, request)
  }

  /// The same for a request whose texts may be borrowed bytes: they are copied into the
  /// pending record as they are, never built into strings.
  public func schedule(app appId: String, _ request: BorrowedRequest) throws(UNError) -> ScheduleResult {
    try scheduleRequest(app: appId, request)
  }

  private func scheduleRequest<R: ScheduledRequest>(
    app appId: String, _ request: R
  ) throws(UNError) -> ScheduleResult {
    guard !request.identifier.isEmpty else {
      throw .invalidParams(field: "identifier", problem: "must be a non-empty string")
    }
    try request.content.validate()
    let now = clock.now
    // One app lookup and one identifier hash serve the whole call.
    let existing = existingApp(appId)
    let authorization = existing?.authorization ?? configuration.initialAuthorization
    let hash = PendingSchedule.hash(request.identifier)
    // A new app's schedule is empty: nothing to find.
    let lookup =
      existing?.pending.lookup(request.identifier, hash: hash) ?? PendingSchedule.Lookup(hash: hash, record: nil)
    let isReplacement = lookup.record != nil
    let pendingCount = existing?.pending.count ?? 0
    var result = ScheduleResult(
      identifier: request.identifier, scheduled: false, replaced: false, nextTriggerDate: nil,
      warnings: request.withText(3) { categoryWarnings($0, app: existing) })
    if authorization == .denied || authorization == .notDetermined {
      result.warnings.append(
        "not scheduled: the app's authorization is '\(authorization.rawValue)'")
      emit(.dropped, app: appId, [("identifier", .string(request.identifier)), ("reason", .string("authorization"))])
      return result
    }
    // The trigger is read in place, not bound: a binding copied it (and destroyed the
    // copy), an outlined call each for an enum with a calendar payload.
    guard request.trigger != nil else {
      touchApp(appId, existing).takePending(request.identifier)
      result.scheduled = true
      result.replaced = isReplacement
      if isReplacement { emit(.replaced, app: appId, identifier: request.identifier) }
      deliver(app: appId, request.request, date: now, late: false)
      return result
    }
    if case .push? = request.trigger {
      throw .invalidParams(field: "trigger.type", problem: "'push' triggers come from pushRemote only")
    }
    guard let firstDate = request.trigger?.nextDate(anchor: now, after: now) else {
      // It replaces the pending request of the same identifier, as any new request does,
      // but is not kept itself.
      if isReplacement {
        touchApp(appId, existing).takePending(request.identifier)
        result.replaced = true
      }
      result.warnings.append(
        "not scheduled: the calendar trigger can never fire (no matching date after \(now.rfc3339))")
      emit(.dropped, app: appId, [("identifier", .string(request.identifier)), ("reason", .string("neverFires"))])
      return result
    }
    if !isReplacement, pendingCount >= configuration.effectivePendingLimit, !configuration.iosLimits {
      throw .limitExceeded(limit: "maxPendingPerApp", value: configuration.maxPendingPerApp)
    }
    ceilings.addition += 1
    let app = touchApp(appId, existing)
    // Nothing changed the schedule since the lookup.
    app.upsertPending(request, anchor: now, nextDate: firstDate, addedSequence: ceilings.addition, lookup: lookup)
    let dropped =
      configuration.iosLimits ? dropLeastRecentlyAdded(app, keeping: configuration.effectivePendingLimit) : []
    // The event's date is the call's `now`, the instant the request was added.
    emit(
      isReplacement ? .replaced : .scheduled, app: appId, identifier: request.identifier, nextTriggerDate: firstDate,
      at: now)
    for id in dropped { emit(.dropped, app: appId, [("identifier", .string(id)), ("reason", .string("iosLimits"))]) }
    result.scheduled = true
    result.replaced = isReplacement
    result.nextTriggerDate = firstDate
    return result
  }

  /// `--ios-limits`: keeps the most recently added requests (observed iOS 18/26 behaviour).
  func dropLeastRecentlyAdded(_ app: AppState, keeping limit: Int) -> [String] {
    var dropped: [String] = []
    while app.pending.count > limit {
      guard let oldest = app.pending.records.min(by: { $0.addedSequence < $1.addedSequence }) else { break }
      let id = oldest.identifier
      app.takePending(id)
      dropped.append(id)
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

  /// Calls `body` with views of the page's requests in order (their text read in place,
  /// not copied); returns the cursor of the next page, when more follow.
  public func visitPendingViews(
    app appId: String, after: (Instant, String)?, limit: Int?, _ body: (PendingView) -> Void
  ) -> (Instant, String)? {
    guard let schedule = apps[appId]?.pending else { return nil }
    var last: PendingView?
    let more = schedule.visitOrderedViews(after: after, limit: limit ?? Int.max) { view in
      last = view
      body(view)
    }
    return more ? last.map { ($0.nextDate, $0.identifier) } : nil
  }

  /// Removes the given pending requests (all when `identifiers` is nil); returns how many.
  public func removePending(app appId: String, identifiers: [String]?) -> Int {
    guard apps[appId] != nil else { return 0 }
    let removed: [String] = withApp(appId) { app in
      var removed: [String] = []
      for id in identifiers ?? app.pending.records.map(\.identifier).sorted(by: { ExactKey($0) < ExactKey($1) }) {
        guard app.takePending(id) != nil else { continue }
        removed.append(id)
      }
      return removed
    }
    if !removed.isEmpty {
      emit(.removed, app: appId, [("list", .string("pending")), ("identifiers", .strings(removed))])
    }
    return removed.count
  }
}
