/// What changed since the last commit, so a durable store writes only that (a pending
/// request, not the app's whole schedule).
public struct ChangeSet: Sendable {
  public struct Key: Hashable, Sendable {
    public var app: String
    public var identifier: String
  }

  /// Apps whose own record changed (badge, authorization, foreground, expanded, owner).
  public internal(set) var apps = Set<String>()
  public internal(set) var categories = Set<String>()
  /// Apps whose localized strings were replaced.
  public internal(set) var strings = Set<String>()
  public internal(set) var pending = Set<Key>()
  /// The addition sequences of pending requests removed or replaced: their stored rows
  /// are numbered by it (`pending` lists what to write for the identifiers now).
  public internal(set) var removedPending: [UInt64] = []
  public internal(set) var delivered = Set<Key>()
  public internal(set) var queued = Set<String>()
  /// Apps wiped by `reset`: everything stored for them goes first.
  public internal(set) var resets = Set<String>()
  /// Daemon-wide state: counters, open responses, the agenda, extension work, the clock.
  public internal(set) var globals = false
  /// Events recorded (numbered), oldest first: the history `waitFor {since}` and `watch`
  /// read survives a restart.
  public internal(set) var events: [Event] = []
  /// The numbers of events the per-app history bound pushed out (and, at `reset`, every
  /// event of the app): their stored rows go.
  public internal(set) var forgottenEvents: [UInt64] = []

  public var isEmpty: Bool {
    apps.isEmpty && categories.isEmpty && strings.isEmpty && pending.isEmpty && removedPending.isEmpty
      && delivered.isEmpty
      && queued.isEmpty && resets.isEmpty && !globals && events.isEmpty && forgottenEvents.isEmpty
  }
}

/// The one place durable changes are recorded.  Nothing outside the state types calls
/// it: `AppState`'s durable fields and the center's global fields record themselves
/// when they are set (observers and the only mutating accessors of the keyed
/// collections), so a new mutation cannot forget its mark.  Disabled when state lives
/// in memory only, so recording costs one test of a flag.
///
/// A class: the center and each of its apps share one journal.  Loop-confined, as the
/// center is.
public final class ChangeJournal {
  public var isEnabled = false
  var set = ChangeSet()

  public init() {}

  func app(_ app: String) { if isEnabled { set.apps.insert(app) } }
  func categories(_ app: String) { if isEnabled { set.categories.insert(app) } }
  func strings(_ app: String) { if isEnabled { set.strings.insert(app) } }
  /// A pending request changed; `removed` is the addition sequence of the one it replaced
  /// or that left (nil when none did).
  func pending(_ app: String, _ id: String, removed sequence: UInt64?) {
    guard isEnabled else { return }
    set.pending.insert(ChangeSet.Key(app: app, identifier: id))
    if let sequence { set.removedPending.append(sequence) }
  }
  func delivered(_ app: String, _ id: String) {
    if isEnabled { set.delivered.insert(ChangeSet.Key(app: app, identifier: id)) }
  }
  func queued(_ app: String) { if isEnabled { set.queued.insert(app) } }
  func event(_ event: Event, evicted: UInt64?) {
    guard isEnabled else { return }
    set.events.append(event)
    if let evicted { set.forgottenEvents.append(evicted) }
  }
  /// Stored rows to remove at `reset`, found from what the center holds for the app (its
  /// pending requests' and events' numbers), so the store deletes by number instead of
  /// scanning every row for the app's name.
  func forget(pending sequences: some Sequence<UInt64>, events: some Sequence<UInt64>) {
    guard isEnabled else { return }
    set.removedPending.append(contentsOf: sequences)
    set.forgottenEvents.append(contentsOf: events)
  }
  func global() { if isEnabled { set.globals = true } }
  func reset(_ app: String) {
    guard isEnabled else { return }
    set.resets.insert(app)
    set.apps.insert(app)
    set.categories.remove(app)
    set.strings.remove(app)
    set.queued.remove(app)
    set.pending = set.pending.filter { $0.app != app }
    set.delivered = set.delivered.filter { $0.app != app }
    set.events.removeAll { $0.app == app }
  }

  /// Forgets what was recorded (after a restore: the store already holds it).
  func clear() { set = ChangeSet() }

  func take() -> ChangeSet {
    defer { set = ChangeSet() }
    return set
  }
}

extension Center {
  /// The changes since the last call; the store commits them before answers go out.
  /// The manual clock and the event numbering are compared here rather than marked:
  /// they move without any state type being set.
  public func takeChanges() -> ChangeSet {
    if changes.isEnabled {
      if clock.isManual, clock.now != committedClock {
        committedClock = clock.now
        changes.global()
      }
      if history.lastSequence > reservedEventSequence {
        reservedEventSequence = history.lastSequence + Self.eventSequenceBlock
        changes.global()
      }
    }
    return changes.take()
  }

  /// Event numbers are stored as a ceiling reserved a block at a time (as a database
  /// hands out sequence values), so recording an event does not rewrite the globals row;
  /// after a restart numbering resumes above the ceiling and never reuses a number.
  static var eventSequenceBlock: UInt64 { 1_000 }
}
