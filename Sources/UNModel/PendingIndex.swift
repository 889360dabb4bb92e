#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Identifier → pending record: 64 open-addressing tables (linear probing) chosen by the
/// hash of the identifier's UTF-8.  Keys are compared byte for byte, as clients spell
/// them (as Apple's `NSString` identifiers and the JSON text compare).
///
/// Why not a `[String: Record]`: hashing and comparing a Swift `String` costs more than
/// hashing its bytes once per call, and each entry there costs a `String` (16 bytes) and
/// a reference; here it is a 4-byte tag and a reference (16 bytes with padding).  Why 64 tables: a table grows
/// by re-placing all its entries at once; split, each growth moves a sixty-fourth, so a
/// large schedule never stalls the loop (and the firing of triggers) for long.
struct PendingIndex {
  private static let shardBits = 6
  private var shards = [Shard](repeating: Shard(), count: 1 << shardBits)
  private(set) var count = 0

  /// The identifier's hash: SipHash of its bytes with the process's random seed, so
  /// clients cannot choose identifiers that collide.
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    return hasher.finalize()
  }

  @inline(__always)
  private static func split(_ hash: Int) -> (shard: Int, tag: UInt32) {
    let h = UInt(bitPattern: hash)
    // The tag is never 0 (the empty slot); its other bits place the key in its table.
    return (Int(h & ((1 << shardBits) - 1)), UInt32(truncatingIfNeeded: h >> 32) | 1)
  }

  func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: Int) -> PendingRecord? {
    let (s, tag) = Self.split(hash)
    return shards[s].find(bytes, tag: tag).map { shards[s].record(at: $0) }
  }

  /// Adds a record whose identifier is not in the index.
  mutating func insert(_ record: PendingRecord, hash: Int) {
    let (s, tag) = Self.split(hash)
    shards[s].insert(record, tag: tag)
    count += 1
  }

  /// Puts `record` where the record with the same identifier is.
  mutating func replace(_ bytes: UnsafeBufferPointer<UInt8>, hash: Int, with record: PendingRecord) {
    let (s, tag) = Self.split(hash)
    guard let i = shards[s].find(bytes, tag: tag) else { preconditionFailure("replacing a missing identifier") }
    shards[s].set(record, at: i)
  }

  mutating func remove(_ bytes: UnsafeBufferPointer<UInt8>, hash: Int) -> PendingRecord? {
    let (s, tag) = Self.split(hash)
    guard let i = shards[s].find(bytes, tag: tag) else { return nil }
    count -= 1
    return shards[s].remove(at: i)
  }
}

/// One open-addressing table: slots of a tag (0 = empty) and a record, a power of two
/// of them, at most three quarters full.  Tag and record share a slot so placing a key
/// touches one cache line.  Deletion shifts the following run back (no tombstones), so
/// probe lengths do not decay under churn.
private struct Shard {
  struct Slot {
    var tag: UInt32 = 0
    var record: PendingRecord?
  }

  var slots: [Slot] = []
  var count = 0

  /// The home slot of a tag: its bits above the "occupied" bit.
  @inline(__always)
  private func home(_ tag: UInt32, mask: Int) -> Int { Int(tag >> 1) & mask }

  func find(_ bytes: UnsafeBufferPointer<UInt8>, tag: UInt32) -> Int? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count - 1
    var i = home(tag, mask: mask)
    while true {
      let t = slots[i].tag
      if t == 0 { return nil }
      if t == tag, slots[i].record!.hasIdentifier(bytes) { return i }
      i = (i + 1) & mask
    }
  }

  func record(at i: Int) -> PendingRecord { slots[i].record! }

  mutating func set(_ record: PendingRecord, at i: Int) { slots[i].record = record }

  mutating func insert(_ record: PendingRecord, tag: UInt32) {
    if (count + 1) * 4 > slots.count * 3 { grow() }
    place(record, tag: tag)
    count += 1
  }

  private mutating func place(_ record: PendingRecord, tag: UInt32) {
    let mask = slots.count - 1
    var i = home(tag, mask: mask)
    while slots[i].tag != 0 { i = (i + 1) & mask }
    slots[i] = Slot(tag: tag, record: record)
  }

  private mutating func grow() {
    let old = slots
    slots = [Slot](repeating: Slot(), count: max(8, slots.count * 2))
    for slot in old where slot.tag != 0 { place(slot.record!, tag: slot.tag) }
  }

  mutating func remove(at slot: Int) -> PendingRecord {
    let removed = slots[slot].record!
    let mask = slots.count - 1
    var hole = slot
    var j = slot
    while true {
      j = (j + 1) & mask
      let t = slots[j].tag
      if t == 0 { break }
      // An entry may move back into the hole unless its home lies cyclically in
      // (hole, j]: then moving it would put it before its home.
      let h = home(t, mask: mask)
      let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
      if stays { continue }
      slots[hole] = slots[j]
      hole = j
    }
    slots[hole] = Slot()
    count -= 1
    return removed
  }
}

/// A string's UTF-8 in place (native strings), else through a contiguous copy.
@inline(__always)
func withUTF8Bytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
  if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
  var copy = s
  return copy.withUTF8(body)
}

/// Whether two strings have the same UTF-8 (`==` is canonical equivalence, looser).
func sameUTF8(_ a: String, _ b: String) -> Bool {
  withUTF8Bytes(a) { x in
    withUTF8Bytes(b) { y in
      x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
    }
  }
}
