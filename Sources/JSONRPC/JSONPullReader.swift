/// A forward-only reader that decodes a request of a known shape straight from its
/// bytes, with no intermediate `JSONValue` tree: the hot methods' fast path.
///
/// It never explains a failure.  Every read returns nil (or false) on anything it does
/// not expect, valid or not, and the caller then hands the whole message to
/// `RPCDecoder`, whose full parser and typed readers report the problem precisely.  So
/// this reader only has to be right about what it accepts: exactly the texts
/// `JSONParser` accepts, decoded to the values the tree would hold.
public struct JSONPullReader {
  @usableFromInline var reader: JSONReader
  let bytes: UnsafeRawBufferPointer

  public init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
    reader = JSONReader(bytes, maxDepth: Int.max)
  }

  /// An object member's name, pointing into the message (valid while it is).
  public struct Name {
    @usableFromInline let start: UnsafePointer<UInt8>
    @usableFromInline let count: Int

    @usableFromInline
    init(start: UnsafePointer<UInt8>, count: Int) {
      self.start = start
      self.count = count
    }

    /// The bytes as a string (they were checked to be UTF-8 when read).
    public var text: String { String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self) }

    /// Whether the name is exactly `word` (ASCII).
    @inlinable @inline(__always)
    public func `is`(_ word: StaticString) -> Bool {
      guard word.utf8CodeUnitCount == count else { return false }
      let a = UnsafeRawPointer(start)
      let b = UnsafeRawPointer(word.utf8Start)
      var k = 0
      // Eight bytes a step: the field names are up to 23 bytes long.
      while k + 8 <= count {
        guard a.loadUnaligned(fromByteOffset: k, as: UInt64.self) == b.loadUnaligned(fromByteOffset: k, as: UInt64.self)
        else { return false }
        k += 8
      }
      while k < count {
        guard a.load(fromByteOffset: k, as: UInt8.self) == b.load(fromByteOffset: k, as: UInt8.self) else {
          return false
        }
        k += 1
      }
      return true
    }
  }

  /// Where `nextMember` stopped.
  public enum Member {
    case name(Name)
    /// The object's closing brace was read.
    case end
    /// Not what the fast path handles: fall back.
    case other
  }

  /// The first byte of the next token, after whitespace; nil at the end.
  @inlinable
  public mutating func peek() -> UInt8? {
    reader.skipWhitespace()
    return reader.index < reader.count ? reader.base[reader.index] : nil
  }

  /// Reads `{` at the start of the document (a byte order mark is refused by the parser).
  public mutating func beginDocumentObject() -> Bool {
    if reader.count >= 3, reader.base[0] == 0xEF, reader.base[1] == 0xBB, reader.base[2] == 0xBF { return false }
    return beginObject()
  }

  /// Reads `{`.
  @inlinable
  public mutating func beginObject() -> Bool {
    guard peek() == UInt8(ascii: "{") else { return false }
    reader.index += 1
    return true
  }

  /// The next member's name and its colon, or the closing brace.  `first` is true right
  /// after `{` and set to false here.  Names with escapes or non-ASCII bytes are `.other`:
  /// no field the fast path knows is spelled that way.
  @inlinable
  public mutating func nextMember(_ first: inout Bool) -> Member {
    guard let byte = peek() else { return .other }
    if byte == UInt8(ascii: "}") {
      reader.index += 1
      return .end
    }
    if !first {
      guard byte == UInt8(ascii: ",") else { return .other }
      reader.index += 1
      guard peek() == UInt8(ascii: "\"") else { return .other }
    } else if byte != UInt8(ascii: "\"") {
      return .other
    }
    first = false
    let base = reader.base
    let end = reader.count
    let start = reader.index + 1
    var i = start
    // Eight bytes a step while none is a quote, a backslash, a control character or
    // non-ASCII (the word test of `JSONWriter`, plus the high bits): names are read
    // for every member of every request.  The byte loop below finds which one it was.
    let ones: UInt64 = 0x0101_0101_0101_0101
    while i + 8 <= end {
      let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      let quote = w ^ (ones &* 0x22)
      let backslash = w ^ (ones &* 0x5C)
      let special =
        ((w &- ones &* 0x20) & ~w) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | w
      if special & (ones &* 0x80) != 0 { break }
      i += 8
    }
    while true {
      guard i < end else { return .other }
      let b = base[i]
      if b == UInt8(ascii: "\"") { break }
      if b < 0x20 || b >= 0x80 || b == UInt8(ascii: "\\") { return .other }
      i += 1
    }
    let name = Name(start: base + start, count: i - start)
    reader.index = i + 1
    guard peek() == UInt8(ascii: ":") else { return .other }
    reader.index += 1
    return .name(name)
  }

  /// Only whitespace remains.
  @inlinable
  public mutating func atEnd() -> Bool { peek() == nil }

  /// A string value, decoded as the parser decodes it.
  public mutating func string() -> String? {
    guard peek() == UInt8(ascii: "\"") else { return nil }
    return try? reader.readString()
  }

  /// A string value with no escapes, as its raw bytes (for comparing with a constant).
  public mutating func plainString() -> Name? {
    guard peek() == UInt8(ascii: "\"") else { return nil }
    let start = reader.index + 1
    guard scanPlainString() else { return nil }
    return Name(start: reader.base + start, count: reader.index - 1 - start)
  }

  /// `true` or `false`.
  public mutating func bool() -> Bool? {
    switch peek() {
    case UInt8(ascii: "t"): return (try? reader.readLiteral("true")) != nil ? true : nil
    case UInt8(ascii: "f"): return (try? reader.readLiteral("false")) != nil ? false : nil
    default: return nil
    }
  }

  /// Reads `null` when it comes next; false (and nothing read) otherwise.
  @inlinable
  public mutating func null() -> Bool {
    guard peek() == UInt8(ascii: "n") else { return false }
    let start = reader.index
    guard (try? reader.readLiteral("null")) != nil else {
      // Not `null` after all (`nul`, `n"x"`): leave the cursor where it was, so the next
      // read sees the same bytes and refuses them.
      reader.index = start
      return false
    }
    return true
  }

  /// A number's exact text, as the tree keeps it.
  public mutating func numberText() -> String? {
    guard let b = peek(), b == UInt8(ascii: "-") || b &- UInt8(ascii: "0") < 10 else { return nil }
    let start = reader.index
    guard (try? reader.scanNumber()) != nil else { return nil }
    return String(
      decoding: UnsafeBufferPointer(start: reader.base + start, count: reader.index - start), as: UTF8.self)
  }

  /// A number as `Double(text)` reads it; plain integers of up to 15 digits, exact in
  /// a double, skip the text conversion.
  public mutating func double() -> Double? {
    guard let b = peek(), b == UInt8(ascii: "-") || b &- UInt8(ascii: "0") < 10 else { return nil }
    let start = reader.index
    guard (try? reader.scanNumber()) != nil else { return nil }
    let length = reader.index - start
    if length <= 15 {
      var value: Int64 = 0
      var plain = true
      for k in 0..<length {
        let digit = reader.base[start + k] &- UInt8(ascii: "0")
        guard digit < 10 else {
          plain = false
          break
        }
        value = value * 10 + Int64(digit)
      }
      if plain { return Double(value) }
    }
    return Double(String(decoding: UnsafeBufferPointer(start: reader.base + start, count: length), as: UTF8.self))
  }

  /// The value at the cursor as compact JSON bytes, exactly as `JSONValue.encoded()`
  /// writes the parsed value: copied as is when it is already compact (no whitespace, no
  /// escapes), re-encoded otherwise.  `maxDepth` bounds its nesting as the parser would.
  public mutating func compactValue(maxDepth: Int) -> [UInt8]? {
    guard peek() != nil else { return nil }
    let start = reader.index
    if scanCompact(maxDepth: maxDepth) {
      return Array(UnsafeBufferPointer(start: reader.base + start, count: reader.index - start))
    }
    var full = JSONReader(bytes, maxDepth: maxDepth)
    full.index = start
    guard let value = try? full.parseValue() else { return nil }
    reader.index = full.index
    return value.encoded()
  }
}

extension JSONPullReader {
  /// The value at the cursor as the parser builds it, nested at most `maxDepth`
  /// containers deep counting from this value; nil (cursor unchanged) when the parser
  /// would refuse it.
  public mutating func value(maxDepth: Int) -> JSONValue? {
    guard peek() != nil else { return nil }
    var full = JSONReader(bytes, maxDepth: maxDepth)
    full.index = reader.index
    guard let value = try? full.parseValue() else { return nil }
    reader.index = full.index
    return value
  }
}
