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
/// a reference; here it is one 8-byte word, the record's address with 20 bits of the
/// hash in the bits an address leaves unused.  Why 64 tables: a table grows by
/// re-placing all its entries at once; split, each growth moves a sixty-fourth, so a
/// large schedule never stalls the loop (and the firing of triggers) for long.
///
/// The index owns its records (one retain each, taken on insert and given back on
/// removal or in `deinit`), so it cannot be copied.
struct PendingIndex: ~Copyable {
  private static let shardBits = 6
  private var shards = [Shard](repeating: Shard(), count: 1 << shardBits)
  private(set) var count = 0

  init() {}

  deinit {
    for shard in shards { shard.releaseAll() }
  }

  /// The identifier's hash: SipHash of its bytes with the process's random key, so
  /// clients cannot choose identifiers that collide (`IdentifierHash`).
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int { IdentifierHash.hash(bytes) }

  @inline(__always)
  private static func split(_ hash: Int) -> (shard: Int, key: UInt) {
    let h = UInt(bitPattern: hash)
    return (Int(h & ((1 << shardBits) - 1)), h >> 32)
  }

  func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: Int) -> PendingRecord? {
    let (s, key) = Self.split(hash)
    return shards[s].find(bytes, key: key).map { shards[s].record(at: $0) }
  }

  /// Adds a record whose identifier is not in the index.
  mutating func insert(_ record: PendingRecord, hash: Int) {
    let (s, key) = Self.split(hash)
    shards[s].insert(record, key: key)
    count += 1
  }

  /// Puts `record` where the record with the same identifier is.
  mutating func replace(_ bytes: UnsafeBufferPointer<UInt8>, hash: Int, with record: PendingRecord) {
    let (s, key) = Self.split(hash)
    guard let i = shards[s].find(bytes, key: key) else { preconditionFailure("replacing a missing identifier") }
    shards[s].set(record, at: i)
  }

  mutating func remove(_ bytes: UnsafeBufferPointer<UInt8>, hash: Int) -> PendingRecord? {
    let (s, key) = Self.split(hash)
    guard let i = shards[s].find(bytes, key: key) else { return nil }
    count -= 1
    return shards[s].remove(at: i)
  }
}

/// One slot of a table: 0 when empty, else a retained record's address (16-byte
/// aligned, below 2^48 as Linux and Darwin give user space unless asked for more) with
/// a 20-bit tag of the key's hash in its low 4 and high 16 bits.
private struct Slot {
  var word: UInt = 0

  static let tagBits: UInt = 0xFFFF_0000_0000_000F
  /// Tag width: the tag also names a key's home slot in tables of up to 2^20 slots.
  static let tagWidth = 20

  /// `key`: the hash's upper 32 bits (its lower ones chose the table).
  init(_ record: PendingRecord, key: UInt) {
    let address = UInt(bitPattern: Unmanaged.passRetained(record).toOpaque())
    precondition(address & Self.tagBits == 0, "a record address outside the 48-bit, 16-byte aligned range")
    word = address | Self.tagWord(key)
  }

  init() {}

  @inline(__always)
  static func tagWord(_ key: UInt) -> UInt { (key & 0xF) | ((key >> 4) & 0xFFFF) << 48 }

  var isEmpty: Bool { word == 0 }
  /// The low `tagWidth` bits of the key.
  var tag: UInt { (word & 0xF) | (word >> 48) << 4 }

  var ref: Unmanaged<PendingRecord> {
    Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word & ~Self.tagBits)!)
  }
}

/// One open-addressing table: a power of two of slots, at most three quarters full.
/// A key's home slot is its tag's low bits (the tag holds enough of them for any table
/// below 2^20 slots; a larger one rehashes a record's identifier to move it).
/// Deletion shifts the following run back (no tombstones), so probe lengths do not
/// decay under churn.
private struct Shard {
  var slots: [Slot] = []
  var count = 0

  /// The home slot of a key.
  @inline(__always)
  private static func home(key: UInt, mask: Int) -> Int { Int(truncatingIfNeeded: key) & mask }

  /// The home slot of a stored entry.
  @inline(__always)
  private static func home(_ slot: Slot, mask: Int) -> Int {
    if mask >> Slot.tagWidth == 0 { return Int(slot.tag) & mask }
    let hash = slot.ref._withUnsafeGuaranteedRef { $0.withIdentifier(PendingIndex.hash) }
    return Self.home(key: UInt(bitPattern: hash) >> 32, mask: mask)
  }

  func find(_ bytes: UnsafeBufferPointer<UInt8>, key: UInt) -> Int? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count - 1
    let tag = Slot.tagWord(key)
    var i = Self.home(key: key, mask: mask)
    while true {
      let w = slots[i].word
      if w == 0 { return nil }
      if w & Slot.tagBits == tag, slots[i].ref._withUnsafeGuaranteedRef({ $0.hasIdentifier(bytes) }) { return i }
      i = (i + 1) & mask
    }
  }

  func record(at i: Int) -> PendingRecord { slots[i].ref.takeUnretainedValue() }

  mutating func set(_ record: PendingRecord, at i: Int) {
    let old = slots[i]
    slots[i] = Slot(record, key: old.tag)
    old.ref.release()
  }

  mutating func insert(_ record: PendingRecord, key: UInt) {
    if (count + 1) * 4 > slots.count * 3 { grow() }
    place(Slot(record, key: key), key: key)
    count += 1
  }

  /// Through the buffer, as `grow`: the array's subscripts checked bounds and
  /// uniqueness at every probe.
  private mutating func place(_ slot: Slot, key: UInt) {
    let mask = slots.count - 1
    let start = Self.home(key: key, mask: mask)
    slots.withUnsafeMutableBufferPointer { s in
      var i = start
      while !s[i].isEmpty { i = (i + 1) & mask }
      s[i] = slot
    }
  }

  private mutating func grow() {
    let old = slots
    // Zeroed in one `memset` (an empty slot is all zero bits): `init(repeating:count:)`
    // stored the slots one by one.
    let n = max(8, slots.count * 2)
    slots = [Slot](unsafeUninitializedCapacity: n) { buffer, count in
      memset(buffer.baseAddress!, 0, n * MemoryLayout<Slot>.stride)
      count = n
    }
    let mask = slots.count - 1
    let wide = mask >> Slot.tagWidth != 0
    slots.withUnsafeMutableBufferPointer { s in
      for slot in old where !slot.isEmpty {
        var i = wide ? Self.home(slot, mask: mask) : Int(slot.tag) & mask
        while !s[i].isEmpty { i = (i + 1) & mask }
        s[i] = slot
      }
    }
  }

  /// Takes the record out of slot `slot`, handing its retain to the caller.
  mutating func remove(at slot: Int) -> PendingRecord {
    let removed = slots[slot].ref.takeRetainedValue()
    let mask = slots.count - 1
    var hole = slot
    var j = slot
    while true {
      j = (j + 1) & mask
      if slots[j].isEmpty { break }
      // An entry may move back into the hole unless its home lies cyclically in
      // (hole, j]: then moving it would put it before its home.
      let h = Self.home(slots[j], mask: mask)
      let stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j)
      if stays { continue }
      slots[hole] = slots[j]
      hole = j
    }
    slots[hole] = Slot()
    count -= 1
    return removed
  }

  func releaseAll() {
    for slot in slots where !slot.isEmpty { slot.ref.release() }
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
  // The same representation (the same small string, or the same storage) holds the
  // same bytes: decided from the two words, without reading the text.
  if unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self) { return true }
  return withUTF8Bytes(a) { x in
    withUTF8Bytes(b) { y in
      x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
    }
  }
}

/// Whether a string's UTF-8 is `bytes`.
func sameUTF8(_ a: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  withUTF8Bytes(a) { x in
    x.count == bytes.count && (x.isEmpty || memcmp(x.baseAddress!, bytes.baseAddress!, x.count) == 0)
  }
}
