/// The binary min-heap of a schedule's records, ordered by (next date, identifier).
/// Each slot repeats its record's next date: most comparisons are decided by the dates,
/// read from this contiguous array instead of from records scattered over the heap
/// memory.  Each record knows its slot (`heapIndex`), kept up to date on every move.
///
/// The slots do not own their records: the schedule's index does (every record in the
/// heap is in the index, and leaves the heap before the index lets it go).  Moving a
/// slot then costs no reference counting, which was most of the cost of a sift.
struct PendingHeap {
  struct Slot {
    var date: Instant
    var ref: Unmanaged<PendingRecord>
    /// The record, retained for the caller.
    var record: PendingRecord { ref.takeUnretainedValue() }
  }

  private(set) var slots: [Slot] = []

  var count: Int { slots.count }
  var isEmpty: Bool { slots.isEmpty }
  var first: PendingRecord? { slots.first?.record }

  /// Every record, in heap order.
  var records: [PendingRecord] { slots.map(\.record) }
  var firstDate: Instant? { slots.first?.date }

  /// Adds a record (its `heapIndex` is set here).
  mutating func insert(_ record: PendingRecord) {
    let i = slots.count
    record.heapIndex = i
    slots.append(Slot(date: record.nextDate, ref: .passUnretained(record)))
    // Most requests are added with the latest date and stay at the bottom: one
    // comparison, without entering the sift.
    if i > 0, less(i, (i - 1) / 2) { siftUp(i) }
  }

  /// Puts `record` in slot `i` (a replacement of the record there).
  mutating func put(_ record: PendingRecord, at i: Int) {
    record.heapIndex = i
    slots[i] = Slot(date: record.nextDate, ref: .passUnretained(record))
    restore(i)
  }

  /// Re-places the record of slot `i` after its next date changed.
  mutating func update(at i: Int) {
    slots[i].date = slots[i].ref._withUnsafeGuaranteedRef { $0.nextDate }
    restore(i)
  }

  mutating func remove(at i: Int) {
    let last = slots.removeLast()
    if i < slots.count {
      last.ref._withUnsafeGuaranteedRef { $0.heapIndex = i }
      slots[i] = last
      restore(i)
    }
  }

  /// (date, identifier) order of two slots.
  @inline(__always)
  static func less(_ a: Slot, _ b: Slot) -> Bool {
    a.date != b.date ? a.date < b.date : tieLess(a.ref, b.ref)
  }

  private func less(_ i: Int, _ j: Int) -> Bool {
    let a = slots[i].date
    let b = slots[j].date
    return a != b ? a < b : Self.tieLess(slots[i].ref, slots[j].ref)
  }

  private static func tieLess(_ a: Unmanaged<PendingRecord>, _ b: Unmanaged<PendingRecord>) -> Bool {
    a._withUnsafeGuaranteedRef { x in b._withUnsafeGuaranteedRef { y in PendingRecord.identifierLess(x, y) } }
  }

  private mutating func restore(_ i: Int) {
    if i > 0, less(i, (i - 1) / 2) { siftUp(i) } else { siftDown(i) }
  }

  /// Moves the record of slot `start` up to its place.  The moving slot is held aside
  /// and each parent it passes moves down into the hole (one slot write and one
  /// `heapIndex` per level instead of a swap's two of each), through the buffer: the
  /// array's subscripts checked bounds and uniqueness on every access.
  private mutating func siftUp(_ start: Int) {
    slots.withUnsafeMutableBufferPointer { s in
      let moving = s[start]
      var i = start
      while i > 0 {
        let p = (i - 1) / 2
        guard Self.less(moving, s[p]) else { break }
        s[i] = s[p]
        s[i].ref._withUnsafeGuaranteedRef { $0.heapIndex = i }
        i = p
      }
      guard i != start else { return }
      s[i] = moving
      moving.ref._withUnsafeGuaranteedRef { $0.heapIndex = i }
    }
  }

  /// Moves the record of slot `start` down to its place, the same way.  It takes the
  /// same path as swapping it with its smaller child while that child is smaller (so
  /// the heap's layout, and the order of ties in a listing, are unchanged): the child
  /// that is not less than its sibling moves up when it is less than the moving record.
  /// A replaced request's later date takes it down most of the heap's height.
  private mutating func siftDown(_ start: Int) {
    slots.withUnsafeMutableBufferPointer { s in
      let n = s.count
      let moving = s[start]
      var i = start
      while true {
        let l = 2 * i + 1
        guard l < n else { break }
        var m = l
        if l + 1 < n, Self.less(s[l + 1], s[l]) { m = l + 1 }
        guard Self.less(s[m], moving) else { break }
        s[i] = s[m]
        s[i].ref._withUnsafeGuaranteedRef { $0.heapIndex = i }
        i = m
      }
      guard i != start else { return }
      s[i] = moving
      moving.ref._withUnsafeGuaranteedRef { $0.heapIndex = i }
    }
  }
}

/// The records of a heap in order, best first, without touching the heap: a small heap
/// of positions (the frontier), ordered by the slots they name.
struct OrderedWalk {
  /// The heap's slots; the schedule (and so its index, which owns the records) is held
  /// by the caller for the whole walk.
  private let slots: [PendingHeap.Slot]
  private var items: [Int] = []

  init(_ heap: PendingHeap) {
    slots = heap.slots
    if !slots.isEmpty { push(0) }
  }

  /// The next record in order; its children join the frontier.
  mutating func next() -> PendingRecord? {
    guard let i = pop() else { return nil }
    let l = 2 * i + 1
    if l < slots.count { push(l) }
    if l + 1 < slots.count { push(l + 1) }
    return slots[i].record
  }

  private func less(_ a: Int, _ b: Int) -> Bool { PendingHeap.less(slots[items[a]], slots[items[b]]) }

  private mutating func push(_ x: Int) {
    items.append(x)
    var i = items.count - 1
    while i > 0 {
      let p = (i - 1) / 2
      guard less(i, p) else { break }
      items.swapAt(i, p)
      i = p
    }
  }

  private mutating func pop() -> Int? {
    guard let top = items.first else { return nil }
    let last = items.removeLast()
    if !items.isEmpty {
      items[0] = last
      var i = 0
      while true {
        let l = 2 * i + 1
        var m = i
        if l < items.count, less(l, m) { m = l }
        if l + 1 < items.count, less(l + 1, m) { m = l + 1 }
        if m == i { break }
        items.swapAt(i, m)
        i = m
      }
    }
    return top
  }
}
