import JSONRPC

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

  /// Whether `utf8` has no quote, backslash or control character (JSON text as it is).
  static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    JSONWriter.plainEnd(utf8, from: 0) == utf8.count
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

  /// The same digits as `String(value)`: two at a time from the right into a small
  /// buffer (no division per digit, no table to load), then copied.
  mutating func integer(_ value: UInt64) {
    var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
    let count = withUnsafeMutableBytes(of: &buffer) { digits -> Int in
      var v = value
      var p = digits.count
      while v >= 100 {
        let pair = v % 100
        v /= 100
        let tens = pair / 10
        p -= 2
        digits[p] = UInt8(truncatingIfNeeded: tens) &+ UInt8(ascii: "0")
        digits[p + 1] = UInt8(truncatingIfNeeded: pair &- tens &* 10) &+ UInt8(ascii: "0")
      }
      if v >= 10 {
        p -= 2
        digits[p] = UInt8(truncatingIfNeeded: v / 10) &+ UInt8(ascii: "0")
        digits[p + 1] = UInt8(truncatingIfNeeded: v % 10) &+ UInt8(ascii: "0")
      } else {
        p -= 1
        digits[p] = UInt8(truncatingIfNeeded: v) &+ UInt8(ascii: "0")
      }
      UnsafeMutableRawPointer(at).copyMemory(from: digits.baseAddress! + p, byteCount: digits.count - p)
      return digits.count - p
    }
    at += count
  }

  mutating func integer(_ value: Int64) {
    if value < 0 { byte(UInt8(ascii: "-")) }
    integer(value.magnitude)
  }
}
