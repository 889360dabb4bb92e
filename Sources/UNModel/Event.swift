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
public struct EventHistory: Sendable {
  public let perApp: Int
  private var byApp: [String: [Event]] = [:]
  public private(set) var lastSequence: UInt64 = 0

  public init(perApp: Int) { self.perApp = max(1, perApp) }

  /// Numbers the event and keeps it, dropping the app's oldest beyond the bound.
  public mutating func record(_ event: Event) -> Event {
    var e = event
    lastSequence += 1
    e.sequence = lastSequence
    var list = byApp[e.app, default: []]
    if list.count >= perApp { list.removeFirst(list.count - perApp + 1) }
    list.append(e)
    byApp[e.app] = list
    return e
  }

  /// Events kept with a sequence after `since`, oldest first (one app, or all apps).
  public func events(app: String?, since: UInt64) -> [Event] {
    let lists = app.map { [byApp[$0] ?? []] } ?? Array(byApp.values)
    return lists.flatMap { $0.filter { $0.sequence > since } }.sorted { $0.sequence < $1.sequence }
  }

  public mutating func forget(app: String) { byApp[app] = nil }
}
