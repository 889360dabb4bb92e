/// What changed since the last commit, so a durable store writes only that (a pending
/// request, not the app's whole schedule).  Disabled when state lives in memory only, so
/// marking costs nothing then.
public struct ChangeTracker: Sendable {
  public struct Key: Hashable, Sendable {
    public var app: String
    public var identifier: String
  }

  public var isEnabled = false
  /// Apps whose own record changed (badge, authorization, foreground, expanded).
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

  public var isEmpty: Bool {
    apps.isEmpty && categories.isEmpty && strings.isEmpty && pending.isEmpty && removedPending.isEmpty && delivered.isEmpty
      && queued.isEmpty && resets.isEmpty && !globals
  }

  mutating func app(_ app: String) { if isEnabled { apps.insert(app) } }
  mutating func categories(_ app: String) { if isEnabled { categories.insert(app) } }
  mutating func strings(_ app: String) { if isEnabled { strings.insert(app) } }
  /// A pending request changed; `removed` is the addition sequence of the one it replaced
  /// or that left (nil when none did).
  mutating func pending(_ app: String, _ id: String, removed sequence: UInt64? = nil) {
    guard isEnabled else { return }
    pending.insert(Key(app: app, identifier: id))
    if let sequence { removedPending.append(sequence) }
  }
  mutating func delivered(_ app: String, _ id: String) {
    if isEnabled { delivered.insert(Key(app: app, identifier: id)) }
  }
  mutating func queued(_ app: String) { if isEnabled { queued.insert(app) } }
  mutating func global() { if isEnabled { globals = true } }
  mutating func reset(_ app: String) {
    guard isEnabled else { return }
    resets.insert(app)
    apps.insert(app)
    categories.remove(app)
    strings.remove(app)
    queued.remove(app)
    pending = pending.filter { $0.app != app }
    delivered = delivered.filter { $0.app != app }
  }
}

extension Center {
  /// The changes since the last call; the store commits them before answers go out.
  public func takeChanges() -> ChangeTracker {
    let taken = changes
    changes = ChangeTracker()
    changes.isEnabled = taken.isEnabled
    return taken
  }
}
