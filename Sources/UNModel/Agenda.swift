/// Timed work other than triggers, on the center's clock: background-action deadlines and
/// extension time limits.  Kept sorted by date (then insertion order); it stays small,
/// since every entry is a response or push waiting for a client.
public struct Agenda: Sendable {
  public enum Item: Sendable, Hashable {
    /// A background action not completed by now becomes an `expired` event.
    case responseDeadline(responseId: String)
    /// The service extension's 30 s are up: it gets `serviceTimeWillExpire`.
    case serviceWillExpire(requestId: String)
    /// One more second passed: the original content is delivered.
    case serviceTimeout(requestId: String)
    /// The content extension did not answer a response: it is forwarded to the app.
    case extensionResponseTimeout(responseId: String)
  }

  private var entries: [(date: Instant, order: UInt64, item: Item)] = []
  private var counter: UInt64 = 0

  public init() {}

  public var isEmpty: Bool { entries.isEmpty }
  public var count: Int { entries.count }
  public var nextDate: Instant? { entries.first?.date }

  public mutating func add(_ item: Item, at date: Instant) {
    counter += 1
    let entry = (date: date, order: counter, item: item)
    let index = entries.firstIndex { ($0.date, $0.order) > (date, counter) } ?? entries.count
    entries.insert(entry, at: index)
  }

  public mutating func remove(_ item: Item) { entries.removeAll { $0.item == item } }

  /// When the item is due, if it is on the agenda.
  public func date(of item: Item) -> Instant? { entries.first { $0.item == item }?.date }

  /// Removes and returns the first item due at or before `limit`.
  public mutating func popDue(upTo limit: Instant) -> (Instant, Item)? {
    guard let first = entries.first, first.date <= limit else { return nil }
    entries.removeFirst()
    return (first.date, first.item)
  }
}
