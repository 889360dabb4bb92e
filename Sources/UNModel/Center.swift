/// Limits and modes the center enforces (proto-docs/README.md, "Limits").
public struct CenterConfiguration: Sendable {
  public var maxPendingPerApp = 10_000
  public var maxCategoriesPerApp = 1_000
  public var maxActionsPerCategory = 64
  /// Keep only the 64 most recently added pending requests, as current iOS does.
  public var iosLimits = false
  /// `implicit` (apps start authorized) or `ios` (apps start notDetermined).
  public var initialAuthorization = AuthorizationStatus.authorized
  /// How long a background action may run before `completeResponse` (clock time).
  public var backgroundActionMilliseconds: Int64 = 30_000
  /// How long an extension may take (service: `completeContent`; content: its response).
  public var extensionMilliseconds: Int64 = 30_000
  /// Events kept per app for `waitFor`.
  public var eventHistoryPerApp = 1_000
  /// Delivered notifications kept per app: beyond it the oldest go first.
  public var maxDeliveredPerApp = 10_000
  /// Firings one `advanceClock` may cause: a long advance over many repeating triggers
  /// is refused up front rather than left to run for minutes.
  public var maxFiringsPerAdvance = 1_000_000

  public init() {}

  /// The pending quota in force: 64 under `--ios-limits`.
  public var effectivePendingLimit: Int { iosLimits ? min(64, maxPendingPerApp) : maxPendingPerApp }
}

/// The notification center: every app's state and the rules of UserNotifications, as a
/// pure state machine.  It does no I/O and reads the time only from its `Clock`.
/// Calls return their results; what must reach connections afterwards is queued as
/// effects, which the server moves out of `effects` one by one and executes in order.
///
/// Not thread-safe by design: the daemon's loop thread owns it (as Redis's single
/// `server` struct).
public final class Center {
  // Stored properties are `@exclusivity(unchecked)`: the loop thread alone touches a center,
  // so the run-time exclusivity checks have nothing to catch, and they cost every request
  // (BENCHMARKS.md, "Exclusivity checks").

  public let clock: any Clock
  public let configuration: CenterConfiguration
  /// Set only here (created in `touchApp`, removed in `reset`, replaced in `adopt`),
  /// each recording the change.  Keyed by the app id's exact bytes (`ExactKey`).
  @exclusivity(unchecked) public private(set) var apps: [ExactKey: AppState] = [:] {
    didSet { lastApp.forget() }
  }
  /// The app of the last lookup (`existingApp`).
  @exclusivity(unchecked) private var lastApp = AppLookupCache()
  @exclusivity(unchecked) public internal(set) var sessions: [SessionID: SessionInfo] = [:]
  /// Each app's `app`-role connections, in the order they said hello.
  @exclusivity(unchecked) var appSessions: [ExactKey: [SessionID]] = [:]
  /// What must reach connections, in order; the server moves each out as it executes it.
  public let effects = EffectQueue()
  /// Called between two firings of a long run (`fireDue`) once `effectBacklog` effects
  /// wait, so that the consumer routes them as they happen: an `advanceClock` over a
  /// year of a once-a-minute trigger causes a million effects, which queued whole took
  /// hundreds of megabytes.  The center is consistent when it is called, and the consumer
  /// may call back into it (a connection it drops is detached).
  @exclusivity(unchecked) public var onEffectBacklog: (() -> Void)?
  public static let effectBacklog = 1024

  /// Delivered notifications removed because an app's list was full (`stats`).
  public var deliveredDropped: Int { unstored.deliveredDropped }
  // The daemon-wide durable state: each field records its change itself.
  @exclusivity(unchecked) var counters = CenterCounters() {
    didSet { changes.global() }
  }
  /// The addition and event numberings and the manual clock, recorded when they pass
  /// what the store holds (`takeChanges`), so a `scheduleLocal` does not rewrite the
  /// globals row.
  @exclusivity(unchecked) var ceilings = NumberingCeilings()
  /// Counters that are not stored.
  @exclusivity(unchecked) var unstored = UnstoredCounters()
  /// Background responses waiting for `completeResponse`, by response id.
  @exclusivity(unchecked) public internal(set) var openResponses: [String: (app: String, deadline: Instant)] = [:] {
    didSet { changes.global() }
  }
  /// Deadlines of background actions and extensions.
  @exclusivity(unchecked) public internal(set) var agenda = Agenda() {
    didSet { changes.global() }
  }
  /// Pushes waiting for a service extension, by request id.
  @exclusivity(unchecked) public internal(set) var pendingModifications: [String: PendingModification] = [:] {
    didSet { changes.global() }
  }
  /// Foreground notifications waiting for the app's `willPresent` answer, by presentation id.
  @exclusivity(unchecked) public internal(set) var pendingPresentations: [String: PendingPresentation] = [:]
  /// Responses waiting for a content extension, by response id.
  @exclusivity(unchecked) public internal(set) var pendingExtensionResponses: [String: PendingExtensionResponse] = [:] {
    didSet { changes.global() }
  }
  @exclusivity(unchecked) public var deviceLocked = false {
    didSet { changes.global() }
  }
  /// Recent events per app, for `waitFor`.
  @exclusivity(unchecked) public internal(set) var history: EventHistory
  /// What changed since the last commit (enabled with a durable store), shared with
  /// every `AppState`.
  public let changes = ChangeJournal()

  public init(clock: any Clock, configuration: CenterConfiguration = CenterConfiguration()) {
    self.clock = clock
    self.configuration = configuration
    self.history = EventHistory(perApp: configuration.eventHistoryPerApp)
  }

  /// Records an event at the clock's time and queues it for observers.
  func emit(_ kind: Event.Kind, app: String, _ fields: [(String, Event.Value)] = []) {
    record(Event(kind, app: app, date: clock.now, fields))
  }

  /// Records an event whose fields are an identifier (and a next trigger date), at
  /// `date` or else the clock's time: the common events, kept without a fields array.
  func emit(
    _ kind: Event.Kind, app: String, identifier: String, nextTriggerDate: Instant? = nil, at date: Instant? = nil
  ) {
    record(Event(kind, app: app, date: date ?? clock.now, identifier: identifier, nextTriggerDate: nextTriggerDate))
  }

  /// Takes the event (the emitters build it in place): it is moved into the history's
  /// copy and the effect, not copied for each.
  private func record(_ event: consuming Event) {
    var evicted: UInt64?
    let numbered = history.record(event, evicted: &evicted)
    changes.event(numbered, evicted: evicted)
    effects.append(.event(numbered))
  }

  /// The effects produced since the last call, in the order they must be executed.
  public func takeEffects() -> [Effect] { effects.takeAll() }

  /// The app's state, created on first use with the configured initial authorization.
  func withApp<R, E: Error>(_ appId: String, _ body: (AppState) throws(E) -> R) throws(E) -> R {
    try body(touchApp(appId, existingApp(appId)))
  }

  /// `apps[appId]`, through the one-entry cache.
  func existingApp(_ appId: String) -> AppState? {
    if let app = lastApp.app, lastApp.id.exactlyEquals(appId) { return app }
    let found = apps[appId]
    if let found {
      lastApp.id = appId
      lastApp.app = found
    }
    return found
  }

  /// The uid the app belongs to (nil when unclaimed or never used), through the
  /// one-entry cache: every call checks it before touching the app.
  public func owner(of appId: String) -> UInt32? {
    // Read in place when the cache holds the app: returning it would retain and release it.
    if lastApp.id.exactlyEquals(appId), let app = lastApp.app { return app.owner }
    return existingApp(appId)?.owner
  }

  /// The app's state for a change, created on first use; `existing` is what a caller
  /// already looked up (`apps[appId]`), so the lookup is not repeated.
  @inline(__always)
  func touchApp(_ appId: String, _ existing: AppState?) -> AppState {
    // Inlined, the app a caller already holds is handed back without a call (and the
    // retain it made).
    if let existing { return existing }
    return addApp(appId)
  }

  /// A new app's state, recorded.
  @inline(never)
  private func addApp(_ appId: String) -> AppState {
    let app = AppState(appId: appId, authorization: configuration.initialAuthorization, journal: changes)
    apps[appId] = app
    changes.app(appId)
    return app
  }

  /// Read-only view of an app (a fresh default when it has never been used, recording
  /// nothing).
  public func app(_ appId: String) -> AppState {
    apps[appId] ?? AppState(appId: appId, authorization: configuration.initialAuthorization, journal: nil)
  }

  /// Takes over apps a store rebuilt (`restore`).
  func adopt(_ restored: [ExactKey: AppState]) {
    for app in restored.values { app.journal = changes }
    apps = restored
  }

  /// An app is in the foreground while it wants to be and an `app` connection is bound.
  public func isForeground(_ appId: String) -> Bool {
    !(appSessions[appId]?.isEmpty ?? true) && (apps[appId]?.wantsForeground ?? true)
  }

  /// Creates the app if it is new and records `uid` as its owner if it has none (nil:
  /// the app is created unclaimed).
  public func claim(app appId: String, uid: UInt32?) {
    withApp(appId) { app in
      if app.owner == nil, let uid { app.owner = uid }
    }
  }

  /// Forgets the app's owner (`releaseApp`); nothing else changes.
  public func release(app appId: String) {
    existingApp(appId)?.owner = nil
  }

  public func setForeground(app appId: String, _ foreground: Bool) {
    withApp(appId) { $0.wantsForeground = foreground }
  }

  /// Wipes one app's state (`reset`); its connections stay bound.
  public func reset(app appId: String) {
    changes.forget(pending: apps[appId]?.pending.records.map(\.addedSequence) ?? [])
    apps[appId] = nil
    changes.reset(appId)
    for (id, open) in openResponses where open.app.exactlyEquals(appId) {
      openResponses[id] = nil
      agenda.remove(.responseDeadline(responseId: id))
    }
    for (id, pending) in pendingModifications where pending.app.exactlyEquals(appId) {
      pendingModifications[id] = nil
      agenda.remove(.serviceWillExpire(requestId: id))
      agenda.remove(.serviceTimeout(requestId: id))
    }
    for (id, pending) in pendingExtensionResponses where pending.app.exactlyEquals(appId) {
      pendingExtensionResponses[id] = nil
      agenda.remove(.extensionResponseTimeout(responseId: id))
    }
    pendingPresentations = pendingPresentations.filter { !$0.value.app.exactlyEquals(appId) }
    history.forget(app: appId)
  }
}

extension Center {
  /// Binds a connection (`hello`).  An `app` connection receives the app's queued
  /// responses, oldest first; the count is returned.
  @discardableResult
  public func attach(_ session: SessionID, _ info: SessionInfo, foreground: Bool = true) -> Int {
    detach(session)
    sessions[session] = info
    guard info.role == .app, let appId = info.appId else { return 0 }
    appSessions[appId, default: []].append(session)
    return withApp(appId) { app in
      app.wantsForeground = foreground
      let queued = app.queuedResponses
      app.queuedResponses.removeAll()
      for (response, deadline) in queued {
        effects.append(.callback(session, .receive(response, deadline: deadline)))
      }
      return queued.count
    }
  }

  /// Unbinds a connection (closed, or a new `hello`).
  public func detach(_ session: SessionID) {
    guard let info = sessions.removeValue(forKey: session) else { return }
    if info.role == .serviceExtension { releaseModifications(of: session) }
    if info.role == .contentExtension { forwardExtensionResponses(of: session) }
    if info.presentationDecision == .delegate { releasePresentations(of: session) }
    if info.role == .app, let appId = info.appId {
      appSessions[appId]?.removeAll { $0 == session }
      if appSessions[appId]?.isEmpty == true { appSessions[appId] = nil }
    }
  }

  /// The `app` connections bound to an app, in hello order.
  public func connections(of appId: String) -> [SessionID] { appSessions[appId] ?? [] }
}

extension Center {
  /// `setBadgeCount`: negative counts are Apple's `badgeInputInvalid`.
  public func setBadgeCount(app appId: String, _ count: Int) throws(UNError) {
    guard count >= 0 else {
      throw .invalidParams(field: "count", problem: "badgeInputInvalid: must be >= 0, got \(count)")
    }
    withApp(appId) { $0.badge = count }
  }

  public func badgeCount(app appId: String) -> Int { apps[appId]?.badge ?? 0 }
}
