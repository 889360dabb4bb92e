/// One app's pending requests, ordered by (next date, identifier): an indexed binary
/// min-heap.  Insert, replace and remove by identifier are O(log n); the next deadline
/// is O(1); listing the first k in order is O(k log k) (a best-first walk of the heap
/// that leaves it untouched).
public struct PendingSchedule: Sendable {
  /// One request in the heap: its entry and where it sits, so a swap updates two
  /// integers instead of re-hashing two identifiers.  Each node is allocated once, at its
  /// exact size, rather than as a slot of a doubling array of large structs.
  ///
  /// `@unchecked Sendable` is safe: nodes are only reachable through the schedule's
  /// storage, which the loop thread alone owns and mutates (the `Center` is loop-bound);
  /// a copied schedule is never mutated concurrently with its original.
  final class Node: @unchecked Sendable {
    var entry: PendingRequest
    var index: Int
    init(_ entry: PendingRequest, index: Int) {
      self.entry = entry
      self.index = index
    }
  }

  /// Copy-on-write storage: schedules are values, but their nodes are mutated in place,
  /// so a shared storage is copied (nodes included) before the first mutation.
  ///
  /// `@unchecked Sendable`: as for `Node`, only the owning schedule mutates it, and only
  /// when it holds the single reference.
  final class Storage: @unchecked Sendable {
    var heap: [Node] = []
    var byIdentifier = ShardedMap<Node>()

    func copy() -> Storage {
      let s = Storage()
      s.heap = heap.map { Node($0.entry, index: $0.index) }
      for node in s.heap { s.byIdentifier[node.entry.identifier] = node }
      return s
    }
  }

  private var storage = Storage()
  private var heap: [Node] {
    get { storage.heap }
    _modify { yield &storage.heap }
  }
  private var byIdentifier: ShardedMap<Node> {
    get { storage.byIdentifier }
    _modify { yield &storage.byIdentifier }
  }

  public init() {}

  public var count: Int { heap.count }
  public var isEmpty: Bool { heap.isEmpty }
  /// The request that fires first.
  public var first: PendingRequest? { heap.first?.entry }

  public subscript(identifier: String) -> PendingRequest? { byIdentifier[identifier]?.entry }

  public func contains(_ identifier: String) -> Bool { byIdentifier[identifier] != nil }

  /// Copies the nodes before a mutation when another schedule value shares them
  /// (value semantics; the daemon itself never shares one).
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }

  /// Inserts, or replaces the request with the same identifier; returns the replaced one.
  @discardableResult
  public mutating func upsert(_ entry: PendingRequest) -> PendingRequest? {
    makeUnique()
    if let node = byIdentifier[entry.identifier] {
      let old = node.entry
      node.entry = entry
      restore(node.index)
      return old
    }
    let node = Node(entry, index: heap.count)
    heap.append(node)
    byIdentifier[entry.identifier] = node
    siftUp(node.index)
    return nil
  }

  @discardableResult
  public mutating func remove(_ identifier: String) -> PendingRequest? {
    makeUnique()
    guard let node = byIdentifier.removeValue(forKey: identifier) else { return nil }
    let i = node.index
    let last = heap.removeLast()
    if i < heap.count {
      heap[i] = last
      last.index = i
      restore(i)
    }
    return node.entry
  }

  public mutating func removeAll() -> Int {
    let n = heap.count
    storage = Storage()
    return n
  }

  /// Every entry, in no particular order.
  public var unordered: [PendingRequest] { heap.map(\.entry) }

  /// Up to `limit` entries strictly after `cursor` (when given), in (date, identifier)
  /// order, plus whether more follow.
  public func ordered(after cursor: (Instant, String)?, limit: Int) -> (entries: [PendingRequest], more: Bool) {
    var out: [PendingRequest] = []
    out.reserveCapacity(min(limit, heap.count, 1024))
    let more = visitOrdered(after: cursor, limit: limit) { out.append($0) }
    return (out, more)
  }

  /// Calls `body` with up to `limit` entries after `cursor`, in order, without copying
  /// them into an array; returns whether more follow.
  public func visitOrdered(after cursor: (Instant, String)?, limit: Int, _ body: (PendingRequest) -> Void) -> Bool {
    var visited = 0
    var frontier = IndexHeap(keys: heap)
    if !heap.isEmpty { frontier.push(0) }
    while let i = frontier.pop() {
      let node = heap[i]
      if cursor.map({ Self.precedes(($0.0, $0.1), node.entry) }) ?? true {
        if visited == limit { return true }
        body(node.entry)
        visited += 1
      }
      let l = 2 * i + 1
      if l < heap.count { frontier.push(l) }
      if l + 1 < heap.count { frontier.push(l + 1) }
    }
    return false
  }

  static func precedes(_ key: (Instant, String), _ b: PendingRequest) -> Bool {
    key.0 < b.nextDate || (key.0 == b.nextDate && key.1 < b.identifier)
  }

  static func less(_ a: PendingRequest, _ b: PendingRequest) -> Bool {
    a.nextDate < b.nextDate || (a.nextDate == b.nextDate && a.identifier < b.identifier)
  }

  private func less(_ i: Int, _ j: Int) -> Bool { Self.less(heap[i].entry, heap[j].entry) }

  private mutating func restore(_ i: Int) {
    if i > 0, less(i, (i - 1) / 2) { siftUp(i) } else { siftDown(i) }
  }

  private mutating func siftUp(_ start: Int) {
    var i = start
    while i > 0 {
      let p = (i - 1) / 2
      guard less(i, p) else { break }
      swapAt(i, p)
      i = p
    }
  }

  private mutating func siftDown(_ start: Int) {
    var i = start
    while true {
      let l = 2 * i + 1
      var m = i
      if l < heap.count, less(l, m) { m = l }
      if l + 1 < heap.count, less(l + 1, m) { m = l + 1 }
      if m == i { return }
      swapAt(i, m)
      i = m
    }
  }

  private mutating func swapAt(_ i: Int, _ j: Int) {
    heap.swapAt(i, j)
    heap[i].index = i
    heap[j].index = j
  }
}

/// A small heap of indices into the schedule's heap, ordered by the entries they name.
private struct IndexHeap {
  let keys: [PendingSchedule.Node]
  var items: [Int] = []

  init(keys: [PendingSchedule.Node]) { self.keys = keys }

  mutating func push(_ x: Int) {
    items.append(x)
    var i = items.count - 1
    while i > 0 {
      let p = (i - 1) / 2
      guard PendingSchedule.less(keys[items[i]].entry, keys[items[p]].entry) else { break }
      items.swapAt(i, p)
      i = p
    }
  }

  mutating func pop() -> Int? {
    guard let top = items.first else { return nil }
    let last = items.removeLast()
    if !items.isEmpty {
      items[0] = last
      var i = 0
      while true {
        let l = 2 * i + 1
        var m = i
        if l < items.count, PendingSchedule.less(keys[items[l]].entry, keys[items[m]].entry) { m = l }
        if l + 1 < items.count, PendingSchedule.less(keys[items[l + 1]].entry, keys[items[m]].entry) { m = l + 1 }
        if m == i { break }
        items.swapAt(i, m)
        i = m
      }
    }
    return top
  }
}
