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
/// a reference; here it is a 4-byte tag and a reference.  Why 64 tables: a table grows
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
    return shards[s].find(bytes, tag: tag).map { shards[s].records[$0]! }
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
    shards[s].records[i] = record
  }

  mutating func remove(_ bytes: UnsafeBufferPointer<UInt8>, hash: Int) -> PendingRecord? {
    let (s, tag) = Self.split(hash)
    guard let i = shards[s].find(bytes, tag: tag) else { return nil }
    count -= 1
    return shards[s].remove(at: i)
  }
}

/// One open-addressing table: parallel arrays of tags (0 = empty) and records, a power
/// of two long, at most three quarters full; deletion shifts the following run back
/// (no tombstones), so probe lengths do not decay under churn.
private struct Shard {
  var tags: [UInt32] = []
  var records: [PendingRecord?] = []
  var count = 0

  private var mask: Int { tags.count - 1 }

  /// The home slot of a tag: its bits above the "occupied" bit.
  @inline(__always)
  private func home(_ tag: UInt32, mask: Int) -> Int { Int(tag >> 1) & mask }

  func find(_ bytes: UnsafeBufferPointer<UInt8>, tag: UInt32) -> Int? {
    guard !tags.isEmpty else { return nil }
    let mask = self.mask
    var i = home(tag, mask: mask)
    while true {
      let t = tags[i]
      if t == 0 { return nil }
      if t == tag, records[i]!.hasIdentifier(bytes) { return i }
      i = (i + 1) & mask
    }
  }

  mutating func insert(_ record: PendingRecord, tag: UInt32) {
    if (count + 1) * 4 > tags.count * 3 { grow() }
    place(record, tag: tag)
    count += 1
  }

  private mutating func place(_ record: PendingRecord, tag: UInt32) {
    let mask = self.mask
    var i = home(tag, mask: mask)
    while tags[i] != 0 { i = (i + 1) & mask }
    tags[i] = tag
    records[i] = record
  }

  private mutating func grow() {
    let oldTags = tags
    let oldRecords = records
    let size = max(8, tags.count * 2)
    tags = [UInt32](repeating: 0, count: size)
    records = [PendingRecord?](repeating: nil, count: size)
    for i in oldTags.indices where oldTags[i] != 0 { place(oldRecords[i]!, tag: oldTags[i]) }
  }

  mutating func remove(at slot: Int) -> PendingRecord {
    let removed = records[slot]!
    let mask = self.mask
    var hole = slot
    var j = slot
    while true {
      j = (j + 1) & mask
      let t = tags[j]
      if t == 0 { break }
      // An entry may move back into the hole unless its home lies cyclically in
      // (hole, j]: then moving it would put it before its home.
      let h = home(t, mask: mask)
      let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
      if stays { continue }
      tags[hole] = t
      records[hole] = records[j]
      hole = j
    }
    tags[hole] = 0
    records[hole] = nil
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
