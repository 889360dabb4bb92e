/// One app's pending requests, ordered by (next date, identifier): an indexed binary
/// min-heap of compact records.  Insert, replace and remove by identifier are O(log n);
/// the next deadline is O(1); listing the first k in order is O(k log k) (a best-first
/// walk of the heap that leaves it untouched).  Requests are kept as `PendingRecord`s
/// and read back as `PendingRequest` values.
public struct PendingSchedule: Sendable {
  /// Copy-on-write storage: schedules are values, but their records are mutated in
  /// place, so a shared storage is copied (records included) before the first mutation.
  ///
  /// `@unchecked Sendable`: as for `PendingRecord`, only the owning schedule mutates it,
  /// and only when it holds the single reference.
  final class Storage: @unchecked Sendable {
    // Stored properties are `@exclusivity(unchecked)`: the loop thread alone touches a schedule,
    // so the run-time exclusivity checks have nothing to catch, and they cost every request
    // (BENCHMARKS.md, "Exclusivity checks").

    @exclusivity(unchecked) var heap = PendingHeap()
    @exclusivity(unchecked) var index = PendingIndex()

    func copy() -> Storage {
      let s = Storage()
      for slot in heap.slots {
        let record = slot.record.clone()
        s.heap.insert(record)
        record.withIdentifier { s.index.insert(record, hash: PendingIndex.hash($0)) }
      }
      return s
    }
  }

  private var storage = Storage()

  public init() {}

  public var count: Int { storage.heap.count }
  public var isEmpty: Bool { storage.heap.isEmpty }
  /// The request that fires first.
  public var first: PendingRequest? { storage.heap.first?.entry }
  /// When the first request fires, without reading the request.
  var firstDate: Instant? { storage.heap.firstDate }

  public subscript(identifier: String) -> PendingRequest? { record(identifier)?.entry }

  public func contains(_ identifier: String) -> Bool { record(identifier) != nil }

  /// The request read in place (no `PendingRequest` built), for writing it out.
  public func view(_ identifier: String) -> PendingView? { record(identifier).map(PendingView.init(record:)) }

  /// The hash of an identifier, for a caller that looks it up more than once.
  static func hash(_ identifier: String) -> Int { withUTF8Bytes(identifier) { PendingIndex.hash($0) } }

  /// An identifier's hash and its record (nil when it is not pending), found once for a
  /// call that reads the schedule and then changes it: `upsert(_:anchor:nextDate:
  /// addedSequence:lookup:)` does not search the index again.
  struct Lookup {
    let hash: Int
    let record: PendingRecord?
  }

  func lookup(_ identifier: String, hash: Int) -> Lookup {
    Lookup(hash: hash, record: withUTF8Bytes(identifier) { storage.index.find($0, hash: hash) })
  }

  private func record(_ identifier: String) -> PendingRecord? {
    withUTF8Bytes(identifier) { storage.index.find($0, hash: PendingIndex.hash($0)) }
  }

  /// Copies the records before a mutation when another schedule value shares them
  /// (value semantics; the daemon itself never shares one).
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }

  /// Inserts, or replaces the request with the same identifier; returns the replaced one.
  @discardableResult
  public mutating func upsert(_ entry: PendingRequest) -> PendingRequest? {
    let old = self[entry.identifier]
    upsert(
      entry.request, anchor: entry.anchor, nextDate: entry.nextDate, addedSequence: entry.addedSequence,
      hash: Self.hash(entry.identifier))
    return old
  }

  /// Inserts or replaces a request, whose identifier hashes to `hash`, with its dates;
  /// returns the addition sequence of the request it replaced, if any, and the record
  /// that now holds the request.
  @discardableResult
  mutating func upsert<R: ScheduledRequest>(
    _ request: R, anchor: Instant, nextDate: Instant, addedSequence: UInt64, hash: Int
  ) -> (replaced: UInt64?, record: PendingRecord) {
    makeUnique()
    let found = request.withText(0) { [storage] in storage.index.find($0, hash: hash) }
    return place(request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence, hash: hash, found: found)
  }

  /// The same, for a request whose identifier `lookup` (from `lookup(_:hash:)`) looked
  /// up in this schedule, unchanged since.
  @discardableResult
  mutating func upsert<R: ScheduledRequest>(
    _ request: R, anchor: Instant, nextDate: Instant, addedSequence: UInt64, lookup: Lookup
  ) -> (replaced: UInt64?, record: PendingRecord) {
    // A shared storage is copied, and its records with it: the one found is not in the
    // copy.
    guard isKnownUniquelyReferenced(&storage) else {
      return upsert(
        request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence, hash: lookup.hash)
    }
    return place(
      request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence, hash: lookup.hash,
      found: lookup.record)
  }

  /// Stores a request in the record `found` for its identifier, or a new one when nil.
  private func place<R: ScheduledRequest>(
    _ request: R, anchor: Instant, nextDate: Instant, addedSequence: UInt64, hash: Int,
    found: PendingRecord?
  ) -> (replaced: UInt64?, record: PendingRecord) {
    let s = storage
    guard let record = found else {
      let record = PendingRecord.make(request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence)
      s.heap.insert(record)
      s.index.insert(record, hash: hash)
      return (nil, record)
    }
    let replaced = record.addedSequence
    let i = record.heapIndex
    if record.overwrite(request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence) {
      s.heap.update(at: i)
      return (replaced, record)
    }
    let bigger = PendingRecord.make(request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence)
    request.withText(0) { s.index.replace($0, hash: hash, with: bigger) }
    s.heap.put(bigger, at: i)
    return (replaced, bigger)
  }

  /// Moves a request to a new next date (a repeating trigger that fired); false when
  /// there is no such request.
  @discardableResult
  mutating func reschedule(_ identifier: String, to date: Instant) -> Bool {
    makeUnique()
    guard let record = record(identifier) else { return false }
    record.withUnsafeMutablePointerToHeader { $0.pointee.nextDate = date }
    storage.heap.update(at: record.heapIndex)
    return true
  }

  @discardableResult
  public mutating func remove(_ identifier: String) -> PendingRequest? {
    guard let record = record(identifier) else { return nil }
    let entry = record.entry
    discard(identifier)
    return entry
  }

  /// Removes a request without reading it back; returns whether there was one.
  @discardableResult
  mutating func discard(_ identifier: String) -> Bool { take(identifier) != nil }

  /// Removes a request without reading it back; returns its addition sequence.
  @discardableResult
  mutating func take(_ identifier: String) -> UInt64? {
    makeUnique()
    let s = storage
    guard let record = withUTF8Bytes(identifier, { s.index.remove($0, hash: PendingIndex.hash($0)) }) else {
      return nil
    }
    s.heap.remove(at: record.heapIndex)
    return record.addedSequence
  }

  public mutating func removeAll() -> Int {
    let n = storage.heap.count
    storage = Storage()
    return n
  }

  /// Every entry, in no particular order.
  public var unordered: [PendingRequest] { storage.heap.slots.map(\.record.entry) }

  /// Every record, in no particular order (reads dates without building requests).
  var records: [PendingRecord] { storage.heap.records }

  /// Up to `limit` entries strictly after `cursor` (when given), in (date, identifier)
  /// order, plus whether more follow.
  public func ordered(after cursor: (Instant, String)?, limit: Int) -> (entries: [PendingRequest], more: Bool) {
    var out: [PendingRequest] = []
    out.reserveCapacity(min(limit, storage.heap.count, 1024))
    let more = visitOrdered(after: cursor, limit: limit) { out.append($0) }
    return (out, more)
  }

  /// Calls `body` with up to `limit` entries after `cursor`, in order, without copying
  /// them into an array; returns whether more follow.
  public func visitOrdered(after cursor: (Instant, String)?, limit: Int, _ body: (PendingRequest) -> Void) -> Bool {
    visitOrderedViews(after: cursor, limit: limit) { body($0.entry) }
  }

  /// The same, handing out views of the records instead of requests.
  public func visitOrderedViews(after cursor: (Instant, String)?, limit: Int, _ body: (PendingView) -> Void) -> Bool {
    var visited = 0
    var walk = OrderedWalk(storage.heap)
    while let record = walk.next() {
      if cursor.map({ PendingRecord.precedes($0, record) }) ?? true {
        if visited == limit { return true }
        body(PendingView(record: record))
        visited += 1
      }
    }
    return false
  }
}
