/// What observers see (SPEC §6): one record per state change, numbered in order.
public struct Event: Sendable, Hashable {
  public enum Kind: String, Sendable, CaseIterable {
    case scheduled, replaced, fired, presented, delivered, dropped, responded, expired, removed, authorization
    // Remote payloads and extensions (SPEC §7).
    case pushed, remote, modifying, modified, expanded, collapsed, interaction, extensionResponse
  }

  /// Position in the daemon's event order (starts at 1); `waitFor {since}` counts on it.
  public var sequence: UInt64 = 0
  public var kind: Kind
  public var app: String
  public var date: Instant
  /// Further fields, in a stable order (identifier, reason, ...), as JSON-ready scalars.
  public var fields: [(String, Value)]

  public enum Value: Sendable, Hashable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case strings([String])
    case date(Instant)
  }

  public init(_ kind: Kind, app: String, date: Instant, _ fields: [(String, Value)] = []) {
    self.kind = kind
    self.app = app
    self.date = date
    self.fields = fields
  }

  public static func == (a: Event, b: Event) -> Bool {
    a.sequence == b.sequence && a.kind == b.kind && a.app == b.app && a.date == b.date
      && a.fields.map(\.0) == b.fields.map(\.0) && a.fields.map(\.1) == b.fields.map(\.1)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(sequence)
    hasher.combine(kind)
    hasher.combine(app)
  }

  public subscript(field: String) -> Value? { fields.first { $0.0 == field }?.1 }
}

/// The recent events of every app, kept for `waitFor` (a bounded history per app).
/// Each app's events sit in a ring, mutated in place: recording is O(1) and never copies
/// the history.
public struct EventHistory: Sendable {
  public let perApp: Int
  private var byApp: [String: Ring] = [:]
  public private(set) var lastSequence: UInt64 = 0

  /// One app's last `perApp` events; `start` is the oldest once the ring is full.
  struct Ring: Sendable {
    var events: [Event] = []
    var start = 0

    mutating func append(_ e: Event, bound: Int) {
      if events.count < bound {
        events.append(e)
      } else {
        events[start] = e
        start = (start + 1) % bound
      }
    }

    /// Oldest first.
    var ordered: ArraySlice<Event> { start == 0 ? events[...] : events[start...] + events[..<start] }
  }

  public init(perApp: Int) { self.perApp = max(1, perApp) }

  /// Numbers the event and keeps it, dropping the app's oldest beyond the bound.
  public mutating func record(_ event: Event) -> Event {
    var e = event
    lastSequence += 1
    e.sequence = lastSequence
    byApp[e.app, default: Ring()].append(e, bound: perApp)
    return e
  }

  /// Events kept with a sequence after `since`, oldest first (one app, or all apps).
  public func events(app: String?, since: UInt64) -> [Event] {
    let rings = app.map { byApp[$0].map { [$0] } ?? [] } ?? Array(byApp.values)
    return rings.flatMap { $0.ordered.filter { $0.sequence > since } }.sorted { $0.sequence < $1.sequence }
  }

  public mutating func forget(app: String) { byApp[app] = nil }
}
