/// `UNAuthorizationStatus`.
public enum AuthorizationStatus: String, Sendable, CaseIterable {
  case notDetermined, denied, authorized, provisional, ephemeral
}

/// Everything one app owns (proto-docs/README.md, "The rules"): categories, pending and
/// delivered notifications, badge, authorization, foreground state and the responses
/// waiting for a connection.
///
/// Durable by construction: every durable field records its change in the center's
/// `ChangeJournal` when it is set (an observer), and the keyed collections — pending and
/// delivered, whose rows are written one request at a time — can be changed only
/// through the accessors below, which record the identifier they touched.
///
/// A class: the center looks an app up several times per call, and a struct this size
/// would be copied (every reference retained and released) at each lookup.  Like the
/// center, it belongs to the loop thread and is not `Sendable`.
public final class AppState {
  // Stored properties are `@exclusivity(unchecked)`: the loop thread alone touches an app's state,
  // so the run-time exclusivity checks have nothing to catch, and they cost every request
  // (BENCHMARKS.md, "Exclusivity checks").

  public let appId: String
  /// Where changes are recorded: the center's journal, or nil for a detached default.
  @exclusivity(unchecked) var journal: ChangeJournal?
  @exclusivity(unchecked) public var categories: [Category] = [] {
    didSet {
      categoryWarningIdentifier = nil
      journal?.categories(appId)
    }
  }
  /// The last category a request named (nil: none since the categories changed) and
  /// the warnings it gets: requests of an app mostly name the same category, and the
  /// warning text is built once for them.  Two properties, not an optional pair: reading
  /// the pair copied both (retaining the array even when the name did not match).
  @exclusivity(unchecked) var categoryWarningIdentifier: String?
  @exclusivity(unchecked) var categoryWarnings: [String] = []
  /// `Localizable.strings` as the app registered it: key (its exact bytes) → format, for
  /// the `loc-key`s of its remote notifications.
  @exclusivity(unchecked) public var localizedStrings: [ExactKey: String] = [:] {
    didSet { journal?.strings(appId) }
  }
  @exclusivity(unchecked) public private(set) var pending = PendingSchedule()
  @exclusivity(unchecked) public private(set) var delivered = DeliveredList()
  @exclusivity(unchecked) public var badge = 0 {
    didSet { journal?.app(appId) }
  }
  @exclusivity(unchecked) public var authorization: AuthorizationStatus {
    didSet { journal?.app(appId) }
  }
  /// The app's own wish to be in the foreground; it is in the foreground only while an
  /// `app` connection is also bound to it.
  @exclusivity(unchecked) public var wantsForeground = true {
    didSet { journal?.app(appId) }
  }
  /// The options the user granted (`requestAuthorization`); all of alert, sound and
  /// badge for apps authorized implicitly.
  @exclusivity(unchecked) public var grantedOptions: [AuthorizationOption] = [.alert, .sound, .badge] {
    didSet { journal?.app(appId) }
  }
  /// The simulated user's answer to the next authorization prompt (grant when nil).
  @exclusivity(unchecked) public var nextAnswer: Bool? {
    didSet { journal?.app(appId) }
  }
  /// The uid that first bound the app; others are refused access (proto-docs/README.md,
  /// "Apps and their owners").
  @exclusivity(unchecked) public var owner: UInt32? {
    didSet { journal?.app(appId) }
  }
  /// The notification the user is looking at expanded (long press), if any.
  @exclusivity(unchecked) public var expanded: String? {
    didSet { journal?.app(appId) }
  }
  /// Responses made while no `app` connection existed, oldest first.
  @exclusivity(unchecked) public var queuedResponses: [(NotificationResponse, Instant?)] = [] {
    didSet { journal?.queued(appId) }
  }

  public init(appId: String, authorization: AuthorizationStatus, journal: ChangeJournal? = nil) {
    self.appId = appId
    self.authorization = authorization
    self.journal = journal
  }

  public func category(_ identifier: String) -> Category? {
    categories.first { $0.identifier.exactlyEquals(identifier) }
  }
}

// MARK: - Pending requests: the only ways to change them, each recorded.

extension AppState {
  /// Inserts or replaces a request, whose identifier `lookup` looked up in `pending`
  /// (unchanged since); returns the addition sequence of the one it replaced.
  @discardableResult
  func upsertPending<R: ScheduledRequest>(
    _ request: R, anchor: Instant, nextDate: Instant, addedSequence: UInt64,
    lookup: PendingSchedule.Lookup
  ) -> UInt64? {
    let (replaced, record) = pending.upsert(
      request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence, lookup: lookup)
    journal?.pending(appId, record, removed: replaced)
    return replaced
  }

  /// A stored request, as a store hands it back at start-up.
  public func restorePending(_ entry: PendingRequest) {
    let (replaced, record) = pending.upsert(
      entry.request, anchor: entry.anchor, nextDate: entry.nextDate, addedSequence: entry.addedSequence,
      hash: PendingSchedule.hash(entry.identifier))
    journal?.pending(appId, record, removed: replaced)
  }

  /// Moves a repeating request to its next date.
  func reschedulePending(_ identifier: String, to date: Instant) {
    guard pending.reschedule(identifier, to: date), let journal, journal.isEnabled,
      let moved = pending.view(identifier)
    else { return }
    journal.pending(appId, moved.record, removed: nil)
  }

  /// Removes a request; returns its addition sequence (nil when there was none).
  @discardableResult
  func takePending(_ identifier: String) -> UInt64? {
    let removed = pending.take(identifier)
    if let removed { journal?.pendingRemoved(removed) }
    return removed
  }
}

// MARK: - Delivered notifications: the only ways to change them, each recorded.

extension AppState {
  /// Keeps `notification` under `identifier`, or removes what is there (nil).
  public func setDelivered(_ identifier: String, _ notification: DeliveredNotification?) {
    delivered[identifier] = notification
    journal?.delivered(appId, identifier)
  }

  /// Removes the given notifications; returns those that were there, in the given order.
  func removeDelivered(_ identifiers: [String]) -> [String] {
    let gone = identifiers.filter { delivered.removeValue(forKey: $0) != nil }
    for id in gone { journal?.delivered(appId, id) }
    return gone
  }

  /// Removes the oldest notifications until at most `limit` remain; returns them, oldest
  /// first.
  func trimDelivered(to limit: Int) -> [String] {
    let gone = delivered.trim(to: limit)
    for id in gone { journal?.delivered(appId, id) }
    return gone
  }

  /// Removes every notification; returns their identifiers, in the order of their bytes.
  func removeAllDelivered() -> [String] {
    let gone = delivered.keys.sorted { ExactKey($0) < ExactKey($1) }
    delivered.removeAll()
    for id in gone { journal?.delivered(appId, id) }
    return gone
  }
}
