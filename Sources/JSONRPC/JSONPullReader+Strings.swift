/// Text for the pull reader: member names, string values and number texts.  The usual
/// case, plain ASCII with no escapes, is scanned eight bytes a step and turned into a
/// `String` without the validating route (ASCII is valid UTF-8); anything else goes to
/// `JSONReader`'s own string reading, which decodes or refuses it as the parser does.
extension JSONPullReader {
  /// The offset of the first byte from `from` on that is a quote, a backslash, a control
  /// character or non-ASCII (`reader.count` when there is none).
  ///
  /// Eight bytes a step with the word tests of `JSONReader.skipPlainASCII`.  Their
  /// borrows can flag a byte above a real match but never one below it, so the lowest
  /// flagged byte of a word is the first special one: no byte loop to find it.
  @inlinable @inline(__always)
  func plainASCIIEnd(from: Int) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let base = reader.base
    let end = reader.count
    var i = from
    while i + 8 <= end {
      let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
      let quote = w ^ (ones &* 0x22)
      let backslash = w ^ (ones &* 0x5C)
      let special =
        (w | ((w &- ones &* 0x20) & ~w) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash))
        & (ones &* 0x80)
      if special != 0 { return i + special.trailingZeroBitCount &>> 3 }
      i += 8
    }
    while i < end {
      let b = base[i]
      if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { return i }
      i += 1
    }
    return i
  }

  /// A `String` of `count` ASCII bytes.  Up to 15 bytes it is stored inline, and the
  /// standard library takes an inline ASCII string as it is, without validating or
  /// allocating; longer ones need their storage anyway.
  @inline(__always)
  static func asciiString(_ start: UnsafePointer<UInt8>, _ count: Int) -> String {
    if count == 0 { return "" }
    if count <= 15 {
      return String(unsafeUninitializedCapacity: count) { buffer in
        copySmall(start, to: UnsafeMutableRawPointer(buffer.baseAddress!), count)
        return count
      }
    }
    return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  }

  /// Copies 1 to 15 bytes with two overlapping loads and stores (a call to `memcpy`
  /// costs more than the copy).
  @inline(__always)
  private static func copySmall(_ from: UnsafePointer<UInt8>, to: UnsafeMutableRawPointer, _ n: Int) {
    let p = UnsafeRawPointer(from)
    if n >= 8 {
      let head = p.loadUnaligned(as: UInt64.self)
      let tail = p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
      to.storeBytes(of: head, as: UInt64.self)
      to.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
    } else if n >= 4 {
      let head = p.loadUnaligned(as: UInt32.self)
      let tail = p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
      to.storeBytes(of: head, as: UInt32.self)
      to.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
    } else {
      for k in 0..<n { to.storeBytes(of: p.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self) }
    }
  }

  /// A string value, decoded as the parser decodes it.
  public mutating func string() -> String? { string(refusingNUL: false) }

  /// The same, or nil for a string that holds U+0000 (an identifier, which the general
  /// path refuses with its field's name).  Only an escape can put a NUL in a string, so
  /// only escaped strings are searched for one.
  public mutating func stringWithoutNUL() -> String? { string(refusingNUL: true) }

  @inline(__always)
  private mutating func string(refusingNUL: Bool) -> String? {
    guard peek() == UInt8(ascii: "\"") else { return nil }
    let quote = reader.index
    let end = plainASCIIEnd(from: quote + 1)
    if end < reader.count, reader.base[end] == UInt8(ascii: "\"") {
      reader.index = end + 1
      return Self.asciiString(reader.base + quote + 1, end - quote - 1)
    }
    // An escape, non-ASCII text or a malformed string: read from the quote again.
    guard let s = try? reader.readString() else { return nil }
    if refusingNUL, s.utf8.contains(0) { return nil }
    return s
  }

  /// A string value with no escapes, as its raw bytes (for comparing with a constant).
  public mutating func plainString() -> Name? {
    guard peek() == UInt8(ascii: "\"") else { return nil }
    let start = reader.index + 1
    let end = plainASCIIEnd(from: start)
    if end < reader.count, reader.base[end] == UInt8(ascii: "\"") {
      reader.index = end + 1
    } else {
      // Non-ASCII text, an escape or a malformed string: checked byte by byte.
      guard scanPlainString() else { return nil }
    }
    return Name(start: reader.base + start, count: reader.index - 1 - start)
  }

  /// A string value with no escapes as its bytes in the message (valid UTF-8: exactly
  /// what `string()` would decode), for a caller that copies them on without a `String`;
  /// nil with the cursor where it was for anything else, escaped strings included.
  @inlinable
  public mutating func unescapedString() -> UnsafeBufferPointer<UInt8>? {
    let start = reader.index
    guard let name = plainString() else {
      reader.index = start
      return nil
    }
    return UnsafeBufferPointer(start: name.start, count: name.count)
  }

  /// A number's exact text, as the tree keeps it (a number is ASCII).
  public mutating func numberText() -> String? {
    guard let b = peek(), b == UInt8(ascii: "-") || b &- UInt8(ascii: "0") < 10 else { return nil }
    let start = reader.index
    guard (try? reader.scanNumber()) != nil else { return nil }
    return Self.asciiString(reader.base + start, reader.index - start)
  }
}
