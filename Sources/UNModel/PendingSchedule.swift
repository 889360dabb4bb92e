/// One app's pending requests, ordered by (next date, identifier): an indexed binary
/// min-heap.  Insert, replace and remove by identifier are O(log n); the next deadline
/// is O(1); listing the first k in order is O(k log k) (a best-first walk of the heap
/// that leaves it untouched).
public struct PendingSchedule: Sendable {
  private var heap: [PendingRequest] = []
  private var position: [String: Int] = [:]

  public init() {}

  public var count: Int { heap.count }
  public var isEmpty: Bool { heap.isEmpty }
  /// The request that fires first.
  public var first: PendingRequest? { heap.first }

  public subscript(identifier: String) -> PendingRequest? {
    guard let i = position[identifier] else { return nil }
    return heap[i]
  }

  public func contains(_ identifier: String) -> Bool { position[identifier] != nil }

  /// Inserts, or replaces the request with the same identifier; returns the replaced one.
  @discardableResult
  public mutating func upsert(_ entry: PendingRequest) -> PendingRequest? {
    if let i = position[entry.identifier] {
      let old = heap[i]
      heap[i] = entry
      restore(i)
      return old
    }
    heap.append(entry)
    position[entry.identifier] = heap.count - 1
    siftUp(heap.count - 1)
    return nil
  }

  @discardableResult
  public mutating func remove(_ identifier: String) -> PendingRequest? {
    guard let i = position.removeValue(forKey: identifier) else { return nil }
    let removed = heap[i]
    let last = heap.removeLast()
    if i < heap.count {
      heap[i] = last
      position[last.identifier] = i
      restore(i)
    }
    return removed
  }

  public mutating func removeAll() -> Int {
    let n = heap.count
    heap.removeAll()
    position.removeAll()
    return n
  }

  /// Every entry, in no particular order.
  public var unordered: [PendingRequest] { heap }

  /// Up to `limit` entries strictly after `cursor` (when given), in (date, identifier)
  /// order, plus whether more follow.
  public func ordered(after cursor: (Instant, String)?, limit: Int) -> (entries: [PendingRequest], more: Bool) {
    var out: [PendingRequest] = []
    out.reserveCapacity(min(limit, heap.count))
    var frontier = IndexHeap(keys: heap)
    if !heap.isEmpty { frontier.push(0) }
    while let i = frontier.pop() {
      let entry = heap[i]
      if cursor.map({ Self.precedes(($0.0, $0.1), entry) }) ?? true {
        if out.count == limit { return (out, true) }
        out.append(entry)
      }
      let l = 2 * i + 1
      if l < heap.count { frontier.push(l) }
      if l + 1 < heap.count { frontier.push(l + 1) }
    }
    return (out, false)
  }

  static func precedes(_ key: (Instant, String), _ b: PendingRequest) -> Bool {
    key.0 < b.nextDate || (key.0 == b.nextDate && key.1 < b.identifier)
  }

  static func less(_ a: PendingRequest, _ b: PendingRequest) -> Bool {
    a.nextDate < b.nextDate || (a.nextDate == b.nextDate && a.identifier < b.identifier)
  }

  private mutating func restore(_ i: Int) {
    if i > 0, Self.less(heap[i], heap[(i - 1) / 2]) { siftUp(i) } else { siftDown(i) }
  }

  private mutating func siftUp(_ start: Int) {
    var i = start
    while i > 0 {
      let p = (i - 1) / 2
      guard Self.less(heap[i], heap[p]) else { break }
      swapAt(i, p)
      i = p
    }
  }

  private mutating func siftDown(_ start: Int) {
    var i = start
    while true {
      let l = 2 * i + 1
      var m = i
      if l < heap.count, Self.less(heap[l], heap[m]) { m = l }
      if l + 1 < heap.count, Self.less(heap[l + 1], heap[m]) { m = l + 1 }
      if m == i { return }
      swapAt(i, m)
      i = m
    }
  }

  private mutating func swapAt(_ i: Int, _ j: Int) {
    heap.swapAt(i, j)
    position[heap[i].identifier] = i
    position[heap[j].identifier] = j
  }
}

/// A small heap of indices into the schedule's heap, ordered by the entries they name.
private struct IndexHeap {
  let keys: [PendingRequest]
  var items: [Int] = []

  init(keys: [PendingRequest]) { self.keys = keys }

  mutating func push(_ x: Int) {
    items.append(x)
    var i = items.count - 1
    while i > 0 {
      let p = (i - 1) / 2
      guard PendingSchedule.less(keys[items[i]], keys[items[p]]) else { break }
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
        if l < items.count, PendingSchedule.less(keys[items[l]], keys[items[m]]) { m = l }
        if l + 1 < items.count, PendingSchedule.less(keys[items[l + 1]], keys[items[m]]) { m = l + 1 }
        if m == i { break }
        items.swapAt(i, m)
        i = m
      }
    }
    return top
  }
}
