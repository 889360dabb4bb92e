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

    /// The bytes as a string (they were checked to be UTF-8 when read).  A short ASCII
    /// one (a method's name) is built without the validating route.
    public var text: String {
      if count <= 15, isASCII { return JSONPullReader.asciiString(start, count) }
      return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    }

    /// No byte has its high bit set; for up to 15 bytes, two overlapping loads.
    private var isASCII: Bool {
      let p = UnsafeRawPointer(start)
      let n = count
      let high: UInt64
      if n >= 8 {
        high = p.loadUnaligned(as: UInt64.self) | p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
      } else if n >= 4 {
        high = UInt64(p.loadUnaligned(as: UInt32.self) | p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
      } else {
        var bits: UInt8 = 0
        for k in 0..<n { bits |= p.load(fromByteOffset: k, as: UInt8.self) }
        high = UInt64(bits)
      }
      return high & 0x8080_8080_8080_8080 == 0
    }

    /// Whether the name is exactly `word` (ASCII).  Two overlapping loads of the widest
    /// size that fits compare a name of 2 to 16 bytes: no byte loop, and no load outside
    /// either text.
    @inlinable @inline(__always)
    public func `is`(_ word: StaticString) -> Bool {
      let n = count
      guard word.utf8CodeUnitCount == n else { return false }
      let a = UnsafeRawPointer(start)
      let b = UnsafeRawPointer(word.utf8Start)
      @inline(__always) func same<T: FixedWidthInteger>(_: T.Type, _ k: Int) -> Bool {
        a.loadUnaligned(fromByteOffset: k, as: T.self) == b.loadUnaligned(fromByteOffset: k, as: T.self)
      }
      if n >= 8 {
        var k = 0
        while k + 8 < n {
          guard same(UInt64.self, k) else { return false }
          k += 8
        }
        return same(UInt64.self, n - 8)
      }
      if n >= 4 { return same(UInt32.self, 0) && same(UInt32.self, n - 4) }
      if n >= 2 { return same(UInt16.self, 0) && same(UInt16.self, n - 2) }
      return n == 0 || same(UInt8.self, 0)
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

  /// The first byte of the next token, after whitespace; nil at the end.  Inlined with
  /// a test for the usual case, a token right at the cursor: several calls a member.
  @inlinable @inline(__always)
  public mutating func peek() -> UInt8? {
    if reader.index < reader.count {
      let byte = reader.base[reader.index]
      if byte > 0x20 { return byte }
    }
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
    let start = reader.index + 1
    let i = plainASCIIEnd(from: start)
    guard i < reader.count, reader.base[i] == UInt8(ascii: "\"") else { return .other }
    let name = Name(start: reader.base + start, count: i - start)
    reader.index = i + 1
    guard peek() == UInt8(ascii: ":") else { return .other }
    reader.index += 1
    return .name(name)
  }

  /// `nextMember` for a caller that knows which member usually comes next: when the
  /// bytes at the cursor are exactly `"likely":` (`,"likely":` after the first member),
  /// as compact JSON in the usual order has them, they are compared as words instead
  /// of scanned, with the same result and cursor.  Anything else is `nextMember`'s.
  /// `likely` must be plain ASCII with no quote, backslash or control byte (a name the
  /// caller knows, such as `identifier`).  Always inlined, so the name's length and
  /// words are constants at each call site instead of read from the StaticString.
  @inlinable @inline(__always)
  public mutating func nextMember(_ first: inout Bool, likely: StaticString) -> Member {
    let n = likely.utf8CodeUnitCount
    let at = reader.index
    let lead = first ? 1 : 2
    if at + lead + n + 2 <= reader.count {
      let p = reader.base + at
      let quote = UInt8(ascii: "\"")
      if p[lead - 1] == quote, first || p[0] == UInt8(ascii: ","), p[lead + n] == quote,
        p[lead + n + 1] == UInt8(ascii: ":")
      {
        let name = Name(start: p + lead, count: n)
        if name.is(likely) {
          first = false
          reader.index = at + lead + n + 2
          return .name(name)
        }
      }
    }
    return nextMember(&first)
  }

  /// Only whitespace remains.
  @inlinable
  public mutating func atEnd() -> Bool { peek() == nil }

  /// `true` or `false`, each compared as one word.
  public mutating func bool() -> Bool? {
    let first = peek()
    let i = reader.index
    let p = UnsafeRawPointer(reader.base + i)
    switch first {
    case UInt8(ascii: "t"):
      guard i + 4 <= reader.count, p.loadUnaligned(as: UInt32.self) == Self.word("true") else { return nil }
      reader.index = i + 4
      return true
    case UInt8(ascii: "f"):
      guard i + 5 <= reader.count, p.loadUnaligned(fromByteOffset: 1, as: UInt32.self) == Self.word("alse") else {
        return nil
      }
      reader.index = i + 5
      return false
    default: return nil
    }
  }

  /// Four ASCII letters as one word, loaded as the message's bytes are.
  @inline(__always)
  private static func word(_ letters: StaticString) -> UInt32 {
    UnsafeRawPointer(letters.utf8Start).loadUnaligned(as: UInt32.self)
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

  /// A number as `Double(text)` reads it; plain integers of up to 15 digits, exact in
  /// a double, skip the text conversion.
  public mutating func double() -> Double? {
    guard let b = peek(), b == UInt8(ascii: "-") || b &- UInt8(ascii: "0") < 10 else { return nil }
    let start = reader.index
    // The usual case, a positive integer without a leading zero, in one pass: its
    // digits, then any byte that cannot continue a number.
    if b != UInt8(ascii: "0") {
      var value: Int64 = 0
      var i = start
      let limit = min(reader.count, start + 15)
      while i < limit, reader.base[i] &- UInt8(ascii: "0") < 10 {
        value = value &* 10 &+ Int64(reader.base[i] &- UInt8(ascii: "0"))
        i += 1
      }
      if i > start {
        let next = i < reader.count ? reader.base[i] : 0
        if next &- UInt8(ascii: "0") >= 10, next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e") {
          reader.index = i
          return Double(value)
        }
      }
    }
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

  /// The value at the cursor as its bytes in the message when it is already written
  /// compactly (what `compactValue` would copy); nil with the cursor where it was
  /// otherwise.
  public mutating func compactValueInPlace(maxDepth: Int) -> UnsafeBufferPointer<UInt8>? {
    guard peek() != nil else { return nil }
    let start = reader.index
    guard scanCompact(maxDepth: maxDepth) else {
      reader.index = start
      return nil
    }
    return UnsafeBufferPointer(start: reader.base + start, count: reader.index - start)
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
