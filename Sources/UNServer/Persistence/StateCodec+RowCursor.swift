/// The rows written most (a pending request and an event per `scheduleLocal`) are
/// written through a pointer into room sized up front, then appended to the commit's
/// buffer in one copy: a row is some twenty pieces, and appending each to the array
/// separately (a uniqueness and capacity check and a generic copy per piece) cost more
/// than writing the bytes.  Only for texts with nothing to escape, which then go in
/// verbatim, exactly as `JSONWriter` writes them; any other row takes the writer's path.
struct RowCursor {
  private(set) var at: UnsafeMutablePointer<UInt8>

  init(_ start: UnsafeMutablePointer<UInt8>) { at = start }

  /// Room for the fixed text of a row (keys, punctuation) and its numbers; the texts'
  /// lengths are added to it.
  static let fixedRoom = 512

  /// Writes at most `room` bytes with `body` (false: the row cannot be written this way,
  /// nothing is appended) and appends them to `o`.
  static func write(_ o: inout [UInt8], room: Int, _ body: (inout RowCursor) -> Bool) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { buffer in
      let start = buffer.baseAddress!
      var cursor = RowCursor(start)
      guard body(&cursor) else { return false }
      assert(cursor.at - start <= room)
      o.append(contentsOf: UnsafeBufferPointer(start: start, count: cursor.at - start))
      return true
    }
  }

  @inline(__always)
  mutating func ascii(_ text: StaticString) {
    at.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    at += text.utf8CodeUnitCount
  }

  @inline(__always)
  mutating func byte(_ b: UInt8) {
    at.pointee = b
    at += 1
  }

  @inline(__always)
  mutating func bytes(_ utf8: UnsafeBufferPointer<UInt8>) {
    guard let base = utf8.baseAddress else { return }
    at.update(from: base, count: utf8.count)
    at += utf8.count
  }

  /// A text known to be plain, quoted.
  @inline(__always)
  mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
    byte(UInt8(ascii: "\""))
    bytes(utf8)
    byte(UInt8(ascii: "\""))
  }

  /// `utf8` quoted, if it is plain (false: it has a byte to escape; the row is then
  /// written the other way and what this wrote is dropped).  The text is tested as it is
  /// copied, eight bytes at a time: one pass instead of a test then a copy.
  /// The cursor must have room for the text and its quotes, and for eight bytes after the
  /// opening quote however short the text (`fixedRoom` gives every row that).
  @inline(__always)
  mutating func plainQuoted(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    byte(UInt8(ascii: "\""))
    guard plain(utf8) else { return false }
    byte(UInt8(ascii: "\""))
    return true
  }

  private mutating func plain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = utf8.baseAddress else { return true }
    let count = utf8.count
    let from = UnsafeRawPointer(base)
    let to = UnsafeMutableRawPointer(at)
    at += count
    guard count >= 8 else {
      // One word, the bytes past the text's end plain ('a'): tested and stored whole.
      // The room is the text's length plus `fixedRoom`, so the word fits; what it
      // writes past the text is overwritten by what follows (or never appended).
      var w: UInt64 = 0x6161_6161_6161_6161
      withUnsafeMutableBytes(of: &w) { $0.baseAddress!.copyMemory(from: from, byteCount: count) }
      to.storeBytes(of: w, as: UInt64.self)
      return Self.specialBytes(w) == 0
    }
    // Whole words, then the word that ends at the last byte (it may overlap the one
    // before: those bytes are copied and tested twice).
    var special: UInt64 = 0
    var i = 0
    while true {
      let w = from.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      to.storeBytes(of: w, toByteOffset: i, as: UInt64.self)
      special |= Self.specialBytes(w)
      if i &+ 8 >= count { break }
      i = min(i &+ 8, count &- 8)
    }
    return special == 0
  }

  /// Has the high bit of each byte of `w` set that may be a quote, backslash or control
  /// character, the same word test as `JSONWriter`'s: zero exactly when no byte of `w` is
  /// one (a byte above such a byte may be marked too, which a yes/no answer ignores).
  @inline(__always)
  static func specialBytes(_ w: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = w ^ (ones &* 0x22)
    let backslash = w ^ (ones &* 0x5C)
    let special = ((w &- ones &* 0x20) & ~w) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
    return special & (ones &* 0x80)
  }

  /// The same digits as `String(value)`, written in place.  Numbers of a row are mostly
  /// 13-digit times: up to 16 digits the number is split into its high part and its last
  /// eight digits, each written with 32-bit arithmetic (cheaper than pairs of digits in
  /// 64 bits; see BENCHMARKS.md); longer numbers in three parts (`general`).
  mutating func integer(_ value: UInt64) {
    if value < 100_000_000 {
      upToEight(UInt32(truncatingIfNeeded: value))
    } else if value < 10_000_000_000_000_000 {
      let high = value / 100_000_000
      upToEight(UInt32(truncatingIfNeeded: high))
      eight(UInt32(truncatingIfNeeded: value &- high &* 100_000_000))
    } else {
      general(value)
    }
  }

  /// `value` (< 10⁸) without leading zeros.
  @inline(__always)
  private mutating func upToEight(_ value: UInt32) {
    let count: Int
    if value < 10_000 {
      count = value < 100 ? (value < 10 ? 1 : 2) : (value < 1_000 ? 3 : 4)
    } else {
      count = value < 1_000_000 ? (value < 100_000 ? 5 : 6) : (value < 10_000_000 ? 7 : 8)
    }
    let pairs = UnsafeRawPointer(Self.digitPairs.utf8Start)
    let start = UnsafeMutableRawPointer(at)
    var end = count
    var v = value
    while v >= 100 {
      let high = v / 100
      end &-= 2
      start.storeBytes(
        of: pairs.loadUnaligned(fromByteOffset: 2 &* Int(truncatingIfNeeded: v &- high &* 100), as: UInt16.self),
        toByteOffset: end, as: UInt16.self)
      v = high
    }
    if v >= 10 {
      start.storeBytes(
        of: pairs.loadUnaligned(fromByteOffset: 2 &* Int(truncatingIfNeeded: v), as: UInt16.self), as: UInt16.self)
    } else {
      start.storeBytes(of: UInt8(truncatingIfNeeded: v) &+ UInt8(ascii: "0"), as: UInt8.self)
    }
    at += count
  }

  /// `value` (< 10⁸) as exactly eight digits, with leading zeros: four pairs.
  @inline(__always)
  private mutating func eight(_ value: UInt32) {
    let pairs = UnsafeRawPointer(Self.digitPairs.utf8Start)
    let start = UnsafeMutableRawPointer(at)
    let high = value / 10_000
    let low = value &- high &* 10_000
    let (a, b) = (high / 100, low / 100)
    let pair = { (n: UInt32) in pairs.loadUnaligned(fromByteOffset: 2 &* Int(truncatingIfNeeded: n), as: UInt16.self) }
    start.storeBytes(of: pair(a), toByteOffset: 0, as: UInt16.self)
    start.storeBytes(of: pair(high &- a &* 100), toByteOffset: 2, as: UInt16.self)
    start.storeBytes(of: pair(b), toByteOffset: 4, as: UInt16.self)
    start.storeBytes(of: pair(low &- b &* 100), toByteOffset: 6, as: UInt16.self)
    at += 8
  }

  /// 17 to 20 digits: the high part (at most 1844), then two halves of eight digits.
  private mutating func general(_ value: UInt64) {
    let high = value / 10_000_000_000_000_000
    let rest = value &- high &* 10_000_000_000_000_000
    let middle = rest / 100_000_000
    upToEight(UInt32(truncatingIfNeeded: high))
    eight(UInt32(truncatingIfNeeded: middle))
    eight(UInt32(truncatingIfNeeded: rest &- middle &* 100_000_000))
  }

  /// "00", "01", ... "99".
  private static var digitPairs: StaticString {
    """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """
  }

  mutating func integer(_ value: Int64) {
    if value < 0 { byte(UInt8(ascii: "-")) }
    integer(value.magnitude)
  }
}
