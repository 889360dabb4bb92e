/// What observers see (proto-docs/README.md, "Events"): one record per state change,
/// numbered in order.
public struct Event: Sendable, Hashable {
  public enum Kind: String, Sendable, CaseIterable {
    case scheduled, replaced, fired, presented, delivered, dropped, responded, expired, removed, authorization
    // Remote payloads and extensions.
    case pushed, remote, modifying, modified, expanded, collapsed, interaction, extensionResponse
    /// A notification without alert text played its sound (nothing was shown).
    case soundPlayed
  }

  /// Position in the daemon's event order (starts at 1); `waitFor {since}` counts on it.
  public var sequence: UInt64 = 0
  public var kind: Kind
  public var app: String
  public var date: Instant
  /// Further fields, in a stable order (identifier, reason, ...), as JSON-ready scalars.
  public var fields: [(String, Value)] {
    get { payload.fields }
    set { payload = .list(newValue) }
  }
  /// The fields as stored: the common shapes without an array (an event is recorded for
  /// every request scheduled, and most carry only an identifier and a date).
  var payload: Payload

  public enum Value: Sendable, Hashable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case strings([String])
    case date(Instant)
  }

  enum Payload: Sendable {
    /// `[("identifier", .string(id))]`
    case identifier(String)
    /// `[("identifier", .string(id)), ("nextTriggerDate", .date(date))]`
    case scheduled(String, Instant)
    case list([(String, Value)])

    var fields: [(String, Value)] {
      switch self {
      case .identifier(let id): [("identifier", .string(id))]
      case .scheduled(let id, let next): [("identifier", .string(id)), ("nextTriggerDate", .date(next))]
      case .list(let list): list
      }
    }
  }

  /// Fields that are an identifier, and maybe a next trigger date, are kept as those
  /// two, as the other initializer keeps them: one event, one form, whichever way it was
  /// made (a stored row writes the two shorter, and reads back as the same form).
  public init(_ kind: Kind, app: String, date: Instant, _ fields: [(String, Value)] = []) {
    self.kind = kind
    self.app = app
    self.date = date
    switch (fields.first, fields.dropFirst().first, fields.count) {
    case (("identifier", .string(let id))?, nil, 1): payload = .identifier(id)
    case (("identifier", .string(let id))?, ("nextTriggerDate", .date(let next))?, 2): payload = .scheduled(id, next)
    default: payload = .list(fields)
    }
  }

  /// An event whose fields are its identifier, and the next trigger date when given.
  init(_ kind: Kind, app: String, date: Instant, identifier: String, nextTriggerDate: Instant? = nil) {
    self.kind = kind
    self.app = app
    self.date = date
    self.payload = nextTriggerDate.map { .scheduled(identifier, $0) } ?? .identifier(identifier)
  }

  public static func == (a: Event, b: Event) -> Bool {
    guard a.sequence == b.sequence, a.kind == b.kind, a.app.exactlyEquals(b.app), a.date == b.date else {
      return false
    }
    let x = a.fields
    let y = b.fields
    return x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(sequence)
    hasher.combine(kind)
    hasher.combine(ExactKey(app))
  }

  /// Calls `body` with each field in order, without building the array for the common
  /// shapes (the log writes a line per event).
  public func forEachField(_ body: (String, Value) -> Void) {
    switch payload {
    case .identifier(let id):
      body("identifier", .string(id))
    case .scheduled(let id, let next):
      body("identifier", .string(id))
      body("nextTriggerDate", .date(next))
    case .list(let list):
      for (name, value) in list { body(name, value) }
    }
  }

  /// The identifier and the next trigger date, when they are the event's only fields (the
  /// events of every schedule, replacement and removal); nil for other shapes.  The log
  /// writes these without going through `forEachField`'s values.
  public var identifierFields: (identifier: String, nextTriggerDate: Instant?)? {
    switch payload {
    case .identifier(let id): (id, nil)
    case .scheduled(let id, let next): (id, next)
    case .list: nil
    }
  }

  public subscript(field: String) -> Value? {
    switch payload {
    case .identifier(let id): field == "identifier" ? .string(id) : nil
    case .scheduled(let id, let next):
      field == "identifier" ? .string(id) : field == "nextTriggerDate" ? .date(next) : nil
    case .list(let list): list.first { $0.0 == field }?.1
    }
  }
}

/// The recent events of every app, kept for `waitFor` (a bounded history per app).
/// Each app's events sit in a ring, mutated in place: recording is O(1) and never copies
/// the history.  Rings are found by app id through a dictionary, and the last app's ring
/// is remembered: events come in runs for one app, and comparing its id is cheaper than
/// hashing it for each.  Apps are told apart by their ids' exact bytes.
public struct EventHistory: Sendable {
  public let perApp: Int
  private var rings: [Ring] = []
  private var slots: [ExactKey: Int] = [:]
  /// Slots of forgotten apps, reused before the array grows.
  private var free: [Int] = []
  private var last: (app: String, slot: Int)?
  public private(set) var lastSequence: UInt64 = 0

  /// One app's last `perApp` events; `start` is the oldest once the ring is full.
  struct Ring: Sendable {
    var events: [Event] = []
    var start = 0

    /// Returns the sequence of the event it pushed out (nil while the ring fills).
    mutating func append(_ e: consuming Event, bound: Int) -> UInt64? {
      if events.count < bound {
        events.append(e)
        return nil
      }
      let evicted = events[start].sequence
      events[start] = e
      start = (start + 1) % bound
      return evicted
    }

    /// Oldest first.
    var ordered: ArraySlice<Event> { start == 0 ? events[...] : events[start...] + events[..<start] }
  }

  public init(perApp: Int) { self.perApp = max(1, perApp) }

  /// Numbers the event and keeps it, dropping the app's oldest beyond the bound;
  /// `evicted` is the number of the one dropped (nil when none was).
  public mutating func record(_ event: consuming Event, evicted: inout UInt64?) -> Event {
    lastSequence += 1
    event.sequence = lastSequence
    evicted = rings[slot(for: event.app)].append(copy event, bound: perApp)
    return event
  }

  /// Keeps an event as it was numbered before a restart (oldest first, as stored).
  public mutating func restore(_ event: Event) {
    _ = rings[slot(for: event.app)].append(event, bound: perApp)
    lastSequence = max(lastSequence, event.sequence)
  }

  /// Every kept event of `app`, oldest first.
  public func events(of app: String) -> ArraySlice<Event> { slots[app].map { rings[$0].ordered } ?? [] }

  private mutating func slot(for app: String) -> Int {
    if let last, last.app.exactlyEquals(app) { return last.slot }
    let s: Int
    if let known = slots[app] {
      s = known
    } else {
      s = free.popLast() ?? rings.count
      if s == rings.count { rings.append(Ring()) }
      slots[app] = s
    }
    last = (app, s)
    return s
  }

  /// Events kept with a sequence after `since`, oldest first (one app, or all apps).
  public func events(app: String?, since: UInt64) -> [Event] {
    let chosen = app.map { slots[$0].map { [rings[$0]] } ?? [] } ?? slots.values.map { rings[$0] }
    return chosen.flatMap { $0.ordered.filter { $0.sequence > since } }.sorted { $0.sequence < $1.sequence }
  }

  /// Numbers the next event above `sequence` (a restart resuming a stored numbering).
  public mutating func resume(after sequence: UInt64) { lastSequence = max(lastSequence, sequence) }

  public mutating func forget(app: String) {
    guard let s = slots.removeValue(forKey: app) else { return }
    rings[s] = Ring()
    free.append(s)
    if last?.slot == s { last = nil }
  }
}
