/// An app's delivered notifications by identifier, with the order they were stored in, so
/// that when the list is full the oldest go first (`--max-delivered`), as Notification
/// Center drops its oldest entries.
///
/// The order is a queue of (delivery sequence, identifier) read lazily: an entry whose
/// notification was removed or replaced since is skipped when met, and the queue is
/// compacted when such entries outnumber the live ones.  Every store goes through the
/// subscript, so no insertion can miss the order.
public struct DeliveredList {
  private var byIdentifier = ShardedMap<DeliveredNotification>()
  private var order: [(sequence: UInt64, identifier: String)] = []
  private var head = 0
  /// False once a notification was stored with a lower sequence than the one before it
  /// (loading a saved state stores them in any order): `trim` sorts first.
  private var ordered = true

  public init() {}

  public var count: Int { byIdentifier.count }
  public var isEmpty: Bool { byIdentifier.isEmpty }
  public var keys: [String] { byIdentifier.keys }
  public var values: [DeliveredNotification] { byIdentifier.values }

  public subscript(identifier: String) -> DeliveredNotification? {
    get { byIdentifier[identifier] }
    set {
      byIdentifier[identifier] = newValue
      guard let newValue else { return }
      if let last = order.last, last.sequence > newValue.sequence { ordered = false }
      order.append((newValue.sequence, identifier))
      if order.count - head > 2 * byIdentifier.count + 1024 { compact() }
    }
  }

  @discardableResult
  public mutating func removeValue(forKey identifier: String) -> DeliveredNotification? {
    byIdentifier.removeValue(forKey: identifier)
  }

  public mutating func removeAll() {
    byIdentifier.removeAll()
    order.removeAll()
    head = 0
    ordered = true
  }

  /// Removes the oldest notifications (by delivery order) until at most `limit` remain;
  /// returns their identifiers, oldest first.
  public mutating func trim(to limit: Int) -> [String] {
    guard byIdentifier.count > limit else { return [] }
    if !ordered { compact() }
    var removed: [String] = []
    while byIdentifier.count > limit, head < order.count {
      let (sequence, identifier) = order[head]
      head += 1
      if isCurrent(sequence, identifier) {
        byIdentifier.removeValue(forKey: identifier)
        removed.append(identifier)
      }
    }
    if head > 1024 && head * 2 > order.count { compact() }
    return removed
  }

  private func isCurrent(_ sequence: UInt64, _ identifier: String) -> Bool {
    byIdentifier[identifier]?.sequence == sequence
  }

  /// Keeps only the live entries, in delivery order.
  private mutating func compact() {
    var live = order[head...].filter { isCurrent($0.sequence, $0.identifier) }
    if !ordered { live.sort { $0.sequence < $1.sequence } }
    order = live
    head = 0
    ordered = true
  }
}
