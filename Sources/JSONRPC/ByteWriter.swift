/// Bytes written with plain copies into an array it owns, for answers built from many small
/// pieces (`listPending` writes about twenty per request listed).  Appending to an
/// `[UInt8]` costs a uniqueness check, a capacity check and a generic copy per piece, more
/// than a small piece's bytes (see BENCHMARKS.md); here a piece is a bounds check and a
/// copy.  The array is made with its whole capacity counted (bytes need no initialising),
/// written through a pointer, and cut to what was written at the end, so `finish` hands it
/// out without copying the answer again (a page of twenty requests is about 8 KiB).
///
/// Not copyable: the array has one owner, so it stays unique and its elements stay where
/// the pointer says while the writer lives; it is only replaced when it grows.
public struct ByteWriter: ~Copyable {
  @usableFromInline var storage: [UInt8]
  /// `storage`'s first element.
  @usableFromInline var start: UnsafeMutablePointer<UInt8>
  @usableFromInline var written = 0

  public init(capacity: Int) {
    (storage, start) = Self.allocate(max(capacity, 64), keeping: nil, count: 0)
  }

  /// The number of bytes written so far.
  public var count: Int { written }

  /// The bytes written, as an array (no copy).
  public consuming func finish() -> [UInt8] {
    var bytes = storage
    storage = []
    bytes.removeLast(bytes.count - written)
    return bytes
  }

  @inlinable
  public mutating func append(_ byte: UInt8) {
    if written == storage.count { grow(toHold: written + 1) }
    start[written] = byte
    written += 1
  }

  @inlinable @inline(__always)
  public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    if storage.count - written < bytes.count { grow(toHold: written + bytes.count) }
    (start + written).update(from: source, count: bytes.count)
    written += bytes.count
  }

  @inlinable
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    append(bytes.assumingMemoryBound(to: UInt8.self))
  }

  @inlinable
  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// A compile-time ASCII literal (keys and punctuation).
  @inlinable @inline(__always)
  public mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Makes room for `count` more bytes at once, so a writer that knows a piece's size
  /// up front (`pending` reserves a listed request's worst case) can use the
  /// `…Reserved` writes, which skip the per-piece capacity check.
  @inlinable
  public mutating func reserve(_ count: Int) {
    if storage.count - written < count { grow(toHold: written + count) }
  }

  /// A compile-time ASCII literal, into room made by `reserve`: the length is a constant
  /// once inlined, so the copy is a few moves rather than a `memcpy` call.
  @inlinable @inline(__always)
  public mutating func appendReserved(_ text: StaticString) {
    assert(storage.count - written >= text.utf8CodeUnitCount, "not reserved")
    (start + written).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    written += text.utf8CodeUnitCount
  }

  /// The room `appendStringReserved` may need for `count` bytes of UTF-8: every byte
  /// escaped as `\u00XX`, and the quotes.
  @inlinable
  public static func quotedRoom(_ count: Int) -> Int { count * 6 + 2 }

  /// UTF-8 text quoted and escaped, exactly as `JSONWriter.appendString` writes it.
  public mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
    reserve(Self.quotedRoom(utf8.count))
    appendStringReserved(utf8: utf8)
  }

  /// `appendString` into room made by `reserve` (`quotedRoom`).  Scans and copies eight
  /// bytes at a time (one load, one test, one store; most text has nothing to escape)
  /// and byte by byte only near an escape and in the last few bytes, instead of finding
  /// the plain run first and copying it with a `memcpy` call (most fields are a few
  /// dozen bytes, where the call and the second pass cost more than the bytes).
  public mutating func appendStringReserved(utf8: UnsafeBufferPointer<UInt8>) {
    assert(storage.count - written >= Self.quotedRoom(utf8.count), "not reserved")
    let out = start + written
    out[0] = UInt8(ascii: "\"")
    var o = 1
    if let source = utf8.baseAddress {
      let n = utf8.count
      let raw = UnsafeRawPointer(source)
      let target = UnsafeMutableRawPointer(out)
      var i = 0
      while true {
        // An eight-byte store at `o` stays inside the reserved room: `o <= 1 + 6 * i`.
        while i + 8 <= n {
          let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          if JSONWriter.hasSpecialByte(word) { break }
          target.storeBytes(of: word, toByteOffset: o, as: UInt64.self)
          i += 8
          o += 8
        }
        if i + 8 > n {
          if n >= 8 {
            // The last few bytes as the string's last eight: the ones before `i` are
            // then plain, so were copied as they are, and the copy lands on them again.
            let word = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            if !JSONWriter.hasSpecialByte(word) {
              target.storeBytes(of: word, toByteOffset: o - (i + 8 - n), as: UInt64.self)
              o += n - i
              break
            }
          } else if i == 0, n >= 4 {
            // Four to seven bytes as two overlapping four-byte words (the rest plain).
            let first = raw.loadUnaligned(as: UInt32.self)
            let last = raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            if !JSONWriter.hasSpecialByte(UInt64(first) | UInt64(last) << 32) {
              target.storeBytes(of: first, toByteOffset: o, as: UInt32.self)
              target.storeBytes(of: last, toByteOffset: o + n - 4, as: UInt32.self)
              o += n
              break
            }
          }
        }
        guard i < n else { break }
        let byte = source[i]
        if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
          out[o] = byte
          o += 1
        } else {
          o += JSONWriter.writeEscape(byte, to: out + o)
        }
        i += 1
      }
    }
    out[o] = UInt8(ascii: "\"")
    written += o + 1
  }

  /// Doubles the array until `needed` bytes fit, keeping what was written.
  @usableFromInline
  mutating func grow(toHold needed: Int) {
    var capacity = storage.count * 2
    while capacity < needed { capacity *= 2 }
    (storage, start) = Self.allocate(capacity, keeping: start, count: written)
  }

  /// An array of `capacity` bytes, all counted, starting with `count` bytes copied from
  /// `kept`, and its first element.
  private static func allocate(
    _ capacity: Int, keeping kept: UnsafeMutablePointer<UInt8>?, count: Int
  ) -> ([UInt8], UnsafeMutablePointer<UInt8>) {
    var array = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      if let kept { buffer.baseAddress!.initialize(from: kept, count: count) }
      initialized = capacity
    }
    let first = array.withUnsafeMutableBufferPointer { $0.baseAddress! }
    return (array, first)
  }
}
