/// Bytes written with plain copies into an array it owns, for answers built from many
/// small pieces (`listPending` writes about twenty per request listed).  Appending to an
/// `[UInt8]` costs a uniqueness check, a capacity check and a generic copy per piece
/// (about 100 instructions); here a piece is a bounds check and a copy.  The array is
/// made with its whole capacity counted (bytes need no initialising), written through a
/// pointer, and cut to what was written at the end, so `finish` hands it out without
/// copying the answer again (a page of twenty requests is about 8 KiB).
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

  /// UTF-8 text quoted and escaped, exactly as `JSONWriter.appendString` writes it.
  public mutating func appendString(utf8: UnsafeBufferPointer<UInt8>) {
    append(UInt8(ascii: "\""))
    var position = 0
    while position < utf8.count {
      let plainEnd = JSONWriter.plainEnd(utf8, from: position)
      append(UnsafeBufferPointer(rebasing: utf8[position..<plainEnd]))
      guard plainEnd < utf8.count else { break }
      JSONWriter.withEscape(utf8[plainEnd]) { append($0) }
      position = plainEnd + 1
    }
    append(UInt8(ascii: "\""))
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
