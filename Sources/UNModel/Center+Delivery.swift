/// One trigger firing: which request, and the date it was due.
public struct Firing: Sendable, Hashable {
  public var app: String
  public var identifier: String
  public var date: Instant
}

extension Center {
  /// The earliest pending date of every app: the one timer the server arms.
  public var nextDeadline: Instant? {
    var best = agenda.nextDate
    for app in apps.values {
      if let d = app.pending.firstDate, best == nil || d < best! { best = d }
    }
    return best
  }

  /// The app whose request fires next (earliest date, then app id, then identifier).
  private func nextDue(upTo limit: Instant) -> (String, PendingRequest)? {
    var best: (ExactKey, PendingRequest)?
    for (id, app) in apps {
      // The date first: the request is read only for an app with one due.
      guard let date = app.pending.firstDate, date <= limit, let first = app.pending.first else { continue }
      if let b = best {
        if first.nextDate > b.1.nextDate { continue }
        if first.nextDate == b.1.nextDate,
          (id, ExactKey(first.identifier)) > (b.0, ExactKey(b.1.identifier))
        {
          continue
        }
      }
      best = (id, first)
    }
    return best.map { ($0.0.string, $0.1) }
  }

  /// Fires every request due at or before `limit`, in date order.  With `movingClock`
  /// (the manual clock) the clock is set to each fire date first, so callbacks and dates
  /// are those of the moment it fires.  Returns the identifiers, one entry per firing.
  @discardableResult
  public func fireDue(upTo limit: Instant, movingClock: Bool = false, late: Bool = false) -> [Firing] {
    var fired: [Firing] = []
    fireDue(upTo: limit, movingClock: movingClock, late: late) { fired.append($0) }
    return fired
  }

  /// The same, calling `each` with every firing as it happens rather than gathering them:
  /// a long advance fires hundreds of thousands.  Between firings, once enough effects
  /// wait, `onEffectBacklog` routes them.
  func fireDue(upTo limit: Instant, movingClock: Bool, late: Bool, each: (Firing) -> Void) {
    while true {
      if effects.count >= Self.effectBacklog, let drain = onEffectBacklog { drain() }
      let due = nextDue(upTo: limit)
      if let date = agenda.nextDate, date <= limit, due == nil || date <= due!.1.nextDate,
        let (at, item) = agenda.popDue(upTo: limit)
      {
        if movingClock { moveManualClock(to: at) }
        perform(item)
        continue
      }
      guard let (appId, entry) = due else { break }
      if movingClock { moveManualClock(to: entry.nextDate) }
      withApp(appId) { app in
        if let trigger = entry.request.trigger, trigger.repeats,
          let nextDate = trigger.nextDate(anchor: entry.anchor, after: late ? limit : entry.nextDate)
        {
          app.reschedulePending(entry.identifier, to: nextDate)
        } else {
          app.takePending(entry.identifier)
        }
      }
      if late {
        emit(.fired, app: appId, [("identifier", .string(entry.identifier)), ("late", .bool(true))])
      } else {
        emit(.fired, app: appId, identifier: entry.identifier)
      }
      deliver(app: appId, entry.request, date: entry.nextDate, late: late)
      each(Firing(app: appId, identifier: entry.identifier, date: entry.nextDate))
    }
  }

  /// What `advanceClock` did: the clock's new time, the identifiers of the first
  /// `listedFirings` firings in firing order, and how many firings there were.
  public struct Advance: Sendable {
    public var now: Instant
    public var fired: [String]
    public var firedCount: Int
  }

  /// At most this many identifiers are listed: the answer to a year of a once-a-minute
  /// trigger would otherwise list half a million.
  public static let listedFirings = 1000

  /// `advanceClock`: moves the manual clock forward, firing what falls due on the way.
  /// The clock stays a date RFC 3339 can write: an advance past 9999 is refused.
  public func advanceClock(seconds: Double) throws(UNError) -> Advance {
    guard clock.isManual else { throw .clockNotManual }
    guard seconds.isFinite, seconds >= 0, seconds <= TimeIntervalTrigger.maxSeconds else {
      throw .invalidParams(field: "seconds", problem: "must be a number in 0...\(Int(TimeIntervalTrigger.maxSeconds))")
    }
    let now = clock.now
    let target = now.adding(milliseconds: Int64((seconds * 1000).rounded()))
    guard target <= Instant.latestRFC3339 else {
      let room = Double(Instant.latestRFC3339.milliseconds - now.milliseconds) / 1000
      throw .invalidParams(
        field: "seconds",
        problem: "would move the clock past \(Instant.latestRFC3339), the last date RFC 3339 can write "
          + "(now is \(now): at most \(room) seconds)")
    }
    // Every repeating trigger fires at most once a minute (time intervals >= 60 s, and a
    // calendar trigger's finest period is a minute), which bounds the work in advance.
    var bound = 0
    for app in apps.values {
      for entry in app.pending.records where entry.nextDate <= target {
        let repeats = entry.trigger?.repeats ?? false
        bound += repeats ? Int((target.milliseconds - entry.nextDate.milliseconds) / 60_000) + 1 : 1
      }
      if bound > configuration.maxFiringsPerAdvance {
        throw .limitExceeded(limit: "maxFiringsPerAdvance", value: configuration.maxFiringsPerAdvance)
      }
    }
    var advance = Advance(now: target, fired: [], firedCount: 0)
    fireDue(upTo: target, movingClock: true, late: false) { firing in
      if advance.firedCount < Self.listedFirings { advance.fired.append(firing.identifier) }
      advance.firedCount += 1
    }
    moveManualClock(to: target)
    return advance
  }

  /// The one way the center moves its manual clock.  The time is durable state (a restart
  /// resumes from the acknowledged time): `takeChanges` sees that it moved, whether or not
  /// anything fired.
  func moveManualClock(to date: Instant) {
    clock.set(date)
  }

  /// Rules 4 and 5: the notification is presented to a foreground app's connections and
  /// kept in the delivered list unless every connection declined both `list` and `banner`.
  @discardableResult
  func deliver(app appId: String, _ request: NotificationRequest, date: Instant, late: Bool) -> Bool {
    let existing = apps[appId]
    let authorization = existing?.authorization ?? configuration.initialAuthorization
    if authorization == .denied || authorization == .notDetermined {
      emit(
        .dropped, app: appId,
        [("identifier", .string(request.identifier)), ("reason", .string(authorization.rawValue))])
      return false
    }
    let request = gatedForCriticalAlerts(request, app: existing)
    if !request.content.hasAlertText { return deliverWithoutAlert(app: appId, request) }
    counters.delivery += 1
    let category = existing?.category(request.content.categoryIdentifier)
    let notification = DeliveredNotification(
      date: date, request: request, category: category, sequence: counters.delivery, late: late)
    var keep = true
    dropPresentations(app: appId, identifier: request.identifier)
    if authorization != .provisional, isForeground(appId) {
      keep = false
      let targets = connections(of: appId)
      if presentForDecision(appId, notification, to: targets) {
        // Held until the app's willPresent answers (Center+Presentation.swift).
        notifyExpandedExtension(app: appId, notification)
        withApp(appId) { app in
          if let badge = request.content.badge { app.badge = badge }
          if app.expanded.exactlyEquals(request.identifier) { app.expanded = nil }
        }
        return true
      }
      for session in targets {
        guard let info = sessions[session] else { continue }
        let actions = info.surface.actions(for: category)
        effects.append(.callback(session, .present(notification, actions: actions, presentation: info.presentation)))
        if info.presentation.contains(.list) || info.presentation.contains(.banner) { keep = true }
      }
      emit(.presented, app: appId, [("identifier", .string(request.identifier)), ("connections", .int(targets.count))])
    }
    if keep {
      if authorization == .provisional {
        emit(.delivered, app: appId, [("identifier", .string(request.identifier)), ("quiet", .bool(true))])
      } else {
        emit(.delivered, app: appId, identifier: request.identifier)
      }
    }
    notifyExpandedExtension(app: appId, notification)
    withApp(appId) { app in
      if let badge = request.content.badge { app.badge = badge }
      if app.expanded.exactlyEquals(request.identifier) { app.expanded = nil }
      app.setDelivered(request.identifier, keep ? notification : nil)
    }
    if keep { trimDelivered(app: appId) }
    return true
  }

  /// Keeps the app's delivered list within `maxDeliveredPerApp`: the oldest go first, as
  /// Notification Center drops its oldest entries, each recorded as removed.
  func trimDelivered(app appId: String) {
    let dropped = withApp(appId) { app in
      let dropped = app.trimDelivered(to: configuration.maxDeliveredPerApp)
      if let expanded = app.expanded, dropped.contains(where: { $0.exactlyEquals(expanded) }) { app.expanded = nil }
      return dropped
    }
    guard !dropped.isEmpty else { return }
    unstored.deliveredDropped += dropped.count
    emit(
      .removed, app: appId,
      [("list", .string("delivered")), ("identifiers", .strings(dropped)), ("reason", .string("maxDelivered"))])
  }

  /// Delivered notifications, newest first (date, then delivery order); `after` is the
  /// (date, delivery sequence) of the last one of the previous page.
  public func listDelivered(app appId: String, after: (Instant, UInt64)?, limit: Int?) -> (
    notifications: [DeliveredNotification], more: Bool
  ) {
    guard let app = apps[appId] else { return ([], false) }
    var all = app.delivered.values.sorted(by: Self.newerFirst)
    if let (date, sequence) = after {
      all.removeAll { !($0.date < date || ($0.date == date && $0.sequence < sequence)) }
    }
    guard let limit, all.count > limit else { return (all, false) }
    return (Array(all.prefix(limit)), true)
  }

  static func newerFirst(_ a: DeliveredNotification, _ b: DeliveredNotification) -> Bool {
    a.date > b.date || (a.date == b.date && a.sequence > b.sequence)
  }

  /// Removes delivered notifications (all when `identifiers` is nil); returns how many.
  public func removeDelivered(app appId: String, identifiers: [String]?) -> Int {
    guard apps[appId] != nil else { return 0 }
    let removed: [String] = withApp(appId) { app in
      guard let identifiers else {
        defer { app.expanded = nil }
        return app.removeAllDelivered()
      }
      let gone = app.removeDelivered(identifiers)
      if let expanded = app.expanded, gone.contains(where: { $0.exactlyEquals(expanded) }) { app.expanded = nil }
      return gone
    }
    if !removed.isEmpty {
      emit(.removed, app: appId, [("list", .string("delivered")), ("identifiers", .strings(removed))])
    }
    return removed.count
  }
}
