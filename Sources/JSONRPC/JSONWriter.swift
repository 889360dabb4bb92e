/// Writes compact JSON (no insignificant whitespace) as UTF-8 bytes.
///
/// The output never contains a raw newline byte: every control character inside a
/// string is escaped and no whitespace is emitted between tokens, which is what lets
/// the newline-delimited framing put one message per line.  Non-ASCII text is written
/// as raw UTF-8 (shorter than `\u` escapes and just as valid).  Numbers are written as
/// their stored text, which the parser or the `JSONValue` factories already checked.
///
/// Plain runs of a string are copied with one `append(contentsOf:)` per run straight
/// from the string's contiguous UTF-8 storage, so ASCII-heavy payloads cost little more
/// than a `memcpy`.
public struct JSONWriter: Sendable {
  /// The bytes written so far.
  public var bytes: [UInt8]

  public init(reservingCapacity capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  public mutating func write(_ value: JSONValue) {
    JSONWriter.append(value, to: &bytes)
  }

  /// Writes `string` as a quoted, escaped JSON string.
  public mutating func writeString(_ string: String) {
    JSONWriter.appendString(string, to: &bytes)
  }

  /// Appends `value` as compact JSON.  Recursion depth equals the value's nesting,
  /// which the parser bounds for anything that came off the wire.
  public static func append(_ value: JSONValue, to out: inout [UInt8]) {
    switch value {
    case .null:
      appendASCII("null", to: &out)
    case .bool(let flag):
      appendASCII(flag ? "true" : "false", to: &out)
    case .number(let text):
      appendRaw(text, to: &out)
    case .string(let text):
      appendString(text, to: &out)
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        append(element, to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (position, member) in members.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        appendString(member.name, to: &out)
        out.append(UInt8(ascii: ":"))
        append(member.value, to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Appends `string` quoted and escaped.  Its UTF-8 is read in place: a small string
  /// (up to 15 bytes, stored inline) is copied to the stack for the call, which costs
  /// less than walking its `utf8` view byte by byte.
  public static func appendString(_ string: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var copy = string
    copy.withUTF8 { appendEscaped($0, to: &out) }
    out.append(UInt8(ascii: "\""))
  }

  /// Appends `value` in decimal, the same digits as `String(value)`, without making the
  /// string.
  public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    appendInteger(value.magnitude, to: &out)
  }

  public static func appendInteger(_ value: UInt64, to out: inout [UInt8]) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
    withUnsafeMutableBytes(of: &digits) { buffer in
      var v = value
      var at = buffer.count
      repeat {
        at -= 1
        buffer[at] = UInt8(truncatingIfNeeded: v % 10) &+ UInt8(ascii: "0")
        v /= 10
      } while v > 0
      out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[at...]))
    }
  }

  /// Appends `text`'s UTF-8 bytes verbatim (for text known to be valid JSON already).
  public static func appendRaw(_ text: String, to out: inout [UInt8]) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { out.append(contentsOf: $0) }
    if done == nil { out.append(contentsOf: text.utf8) }
  }

  /// Appends UTF-8 text (a string's bytes, kept elsewhere) quoted and escaped, exactly
  /// as `appendString` writes the same string.
  public static func appendString(utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    appendEscaped(utf8, to: &out)
    out.append(UInt8(ascii: "\""))
  }

  /// Appends a compile-time ASCII literal.
  @inline(__always)
  public static func appendASCII(_ text: StaticString, to out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private static let hexDigits: StaticString = "0123456789abcdef"

  /// Copies plain runs in one go and escapes `"`, `\` and every control character.
  private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    var position = 0
    while position < utf8.count {
      let plainEnd = plainEnd(utf8, from: position)
      if position < plainEnd {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[position..<plainEnd]))
      }
      guard plainEnd < utf8.count else { break }
      withEscape(utf8[plainEnd]) { out.append(contentsOf: $0) }
      position = plainEnd + 1
    }
  }

  /// Where the run of plain bytes (no quote, backslash or control character) starting at
  /// `position` ends: the first byte to escape, or the end.  Shared by every writer so
  /// they escape alike.
  public static func plainEnd(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var position = start
    let end = utf8.count
    guard let base = utf8.baseAddress.map(UnsafeRawPointer.init) else { return end }
    // Eight plain bytes at a time: most strings have nothing to escape.
    while position < end {
      while position + 8 <= end {
        if hasSpecialByte(base.loadUnaligned(fromByteOffset: position, as: UInt64.self)) { break }
        position += 8
      }
      guard position < end else { break }
      let byte = utf8[position]
      if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return position }
      position += 1
    }
    return end
  }

  /// Whether any of the eight bytes of `w` may be a quote, backslash or control
  /// character (the same word test as the reader's).  Never false for a word that has
  /// one; may be true for a plain byte above one that has one, so a caller goes byte by
  /// byte from there.
  @inline(__always)
  static func hasSpecialByte(_ w: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = w ^ (ones &* 0x22)
    let backslash = w ^ (ones &* 0x5C)
    let special = ((w &- ones &* 0x20) & ~w) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
    return special & (ones &* 0x80) != 0
  }

  /// Writes the escape sequence of `byte` (as `withEscape`) at `out`, which has room for
  /// six bytes, and returns its length.
  @inline(__always)
  static func writeEscape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
    out[0] = UInt8(ascii: "\\")
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[1] = byte
    case 0x08: out[1] = UInt8(ascii: "b")
    case 0x0C: out[1] = UInt8(ascii: "f")
    case 0x0A: out[1] = UInt8(ascii: "n")
    case 0x0D: out[1] = UInt8(ascii: "r")
    case 0x09: out[1] = UInt8(ascii: "t")
    default:
      let hex = hexDigits.utf8Start
      out[1] = UInt8(ascii: "u")
      out[2] = UInt8(ascii: "0")
      out[3] = UInt8(ascii: "0")
      out[4] = hex[Int(byte >> 4)]
      out[5] = hex[Int(byte & 0x0F)]
      return 6
    }
    return 2
  }

  /// Calls `body` with the escape sequence of `byte`, a quote, backslash or control
  /// character: the short forms where JSON has them, `\u00XX` otherwise.
  static func withEscape(_ byte: UInt8, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    var sequence: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &sequence) { buffer in
      let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
      body(UnsafeBufferPointer(start: out, count: writeEscape(byte, to: out)))
    }
  }
}

extension JSONValue {
  /// This value as compact JSON bytes.
  public func encoded() -> [UInt8] {
    var writer = JSONWriter(reservingCapacity: 256)
    writer.write(self)
    return writer.bytes
  }
}
