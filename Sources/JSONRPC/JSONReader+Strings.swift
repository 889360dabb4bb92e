/// String and number scanning for `JSONReader`.
///
/// Strings without escapes (the vast majority in JSON-RPC traffic) are validated in
/// place and turned into a `String` from the byte slice in one step; only strings with
/// escapes are copied into a scratch byte buffer, and even then plain runs are copied
/// as slices rather than character by character.
extension JSONReader {
  /// Reads a string whose opening quote is under the cursor; leaves the cursor after
  /// the closing quote.
  mutating func readString() throws(JSONParseError) -> String {
    let quote = index
    index += 1
    let start = index
    skipPlainASCII()
    while true {
      guard index < count else { throw unterminated(quote) }
      let byte = base[index]
      if byte == UInt8(ascii: "\"") {
        let length = index - start
        index += 1
        if let word = JSONNames.lookup(base + start, length) { return word }
        return String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self)
      } else if byte == UInt8(ascii: "\\") {
        return try readEscapedString(quote: quote, start: start)
      } else if byte < 0x20 {
        throw controlCharacter(byte)
      } else if byte < 0x80 {
        index += 1
      } else {
        try skipUTF8Sequence()
      }
    }
  }

  /// Skips 8 bytes at a time while none of them is a quote, a backslash, a control
  /// character or non-ASCII (SWAR: the classic "has a byte less than n" word tests), so
  /// plain text costs a few instructions per word instead of several per byte.
  @inline(__always)
  mutating func skipPlainASCII() {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= count {
      let w = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      let quote = w ^ (ones &* 0x22)
      let backslash = w ^ (ones &* 0x5C)
      let special =
        (w | ((w &- ones &* 0x20) & ~w)) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
      if special & highs != 0 { return }
      index += 8
    }
  }

  /// Continues `readString` from the first backslash, building the decoded bytes.
  private mutating func readEscapedString(quote: Int, start: Int) throws(JSONParseError) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(index - start + 32)
    out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
    var runStart = index
    while true {
      guard index < count else { throw unterminated(quote) }
      let byte = base[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        if runStart < index {
          out.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
        }
        if byte == UInt8(ascii: "\"") {
          index += 1
          return String(decoding: out, as: UTF8.self)
        }
        try readEscape(into: &out)
        runStart = index
      } else if byte < 0x20 {
        throw controlCharacter(byte)
      } else if byte < 0x80 {
        index += 1
      } else {
        try skipUTF8Sequence()
      }
    }
  }

  /// Decodes one escape whose backslash is under the cursor.
  private mutating func readEscape(into out: inout [UInt8]) throws(JSONParseError) {
    let backslash = index
    guard index + 1 < count else { throw unterminated(backslash) }
    let letter = base[index + 1]
    index += 2
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(letter)
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "u"):
      guard let unit = hex4(at: index) else { throw badUnicodeEscape(backslash) }
      index += 4
      var scalar = UInt32(unit)
      if unit >= 0xDC00, unit <= 0xDFFF { throw loneSurrogate(unit, backslash) }
      if unit >= 0xD800, unit <= 0xDBFF {
        guard index + 1 < count, base[index] == UInt8(ascii: "\\"), base[index + 1] == UInt8(ascii: "u"),
          let low = hex4(at: index + 2), low >= 0xDC00, low <= 0xDFFF
        else { throw loneSurrogate(unit, backslash) }
        index += 6
        scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      }
      JSONReader.appendUTF8(scalar, to: &out)
    default:
      index = backslash + 1
      throw JSONParseError(offset: backslash, reason: "invalid escape at byte \(backslash)")
    }
  }

  /// Four hex digits at `position`, or nil.
  private func hex4(at position: Int) -> UInt16? {
    guard position + 4 <= count else { return nil }
    var value: UInt16 = 0
    for k in 0..<4 {
      let c = base[position + k]
      let digit: UInt8
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      out.append(UInt8(scalar))
    case 0x80..<0x800:
      out.append(UInt8(0xC0 | scalar >> 6))
      out.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      out.append(UInt8(0xE0 | scalar >> 12))
      out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      out.append(UInt8(0x80 | scalar & 0x3F))
    default:
      out.append(UInt8(0xF0 | scalar >> 18))
      out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      out.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// Checks the multi-byte UTF-8 sequence under the cursor against RFC 3629's table of
  /// well-formed sequences and steps over it.
  mutating func skipUTF8Sequence() throws(JSONParseError) {
    let lead = base[index]
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    let trailing: Int
    switch lead {
    case 0xC2...0xDF: trailing = 1
    case 0xE0:
      trailing = 2
      low = 0xA0
    case 0xE1...0xEC, 0xEE, 0xEF: trailing = 2
    case 0xED:
      trailing = 2
      high = 0x9F
    case 0xF0:
      trailing = 3
      low = 0x90
    case 0xF1...0xF3: trailing = 3
    case 0xF4:
      trailing = 3
      high = 0x8F
    default: throw invalidUTF8(index)
    }
    guard index + trailing < count else { throw invalidUTF8(index) }
    let second = base[index + 1]
    guard second >= low, second <= high else { throw invalidUTF8(index) }
    for k in stride(from: 2, through: trailing, by: 1) where base[index + k] & 0xC0 != 0x80 {
      throw invalidUTF8(index)
    }
    index += trailing + 1
  }

  /// Reads a number, checking RFC 8259's grammar, and keeps its exact text.
  mutating func readNumber() throws(JSONParseError) -> JSONValue {
    let start = index
    try scanNumber()
    return .number(String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self))
  }

  /// Steps over a number under the cursor, checking RFC 8259's grammar.
  mutating func scanNumber() throws(JSONParseError) {
    if base[index] == UInt8(ascii: "-") { index += 1 }
    guard index < count else { throw unexpectedEnd() }
    let first = base[index]
    if first == UInt8(ascii: "0") {
      index += 1
    } else if first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9") {
      index += 1
      skipDigits()
    } else {
      throw unexpected()
    }
    if index < count, base[index] == UInt8(ascii: ".") {
      index += 1
      try requireDigits()
    }
    if index < count, base[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") { index += 1 }
      try requireDigits()
    }
  }

  private mutating func skipDigits() {
    while index < count, base[index] &- UInt8(ascii: "0") < 10 { index += 1 }
  }

  private mutating func requireDigits() throws(JSONParseError) {
    guard index < count else { throw unexpectedEnd() }
    guard base[index] &- UInt8(ascii: "0") < 10 else { throw unexpected() }
    skipDigits()
  }

  // MARK: Errors

  private func unterminated(_ quote: Int) -> JSONParseError {
    JSONParseError(offset: quote, reason: "unterminated string starting at byte \(quote)")
  }

  private func controlCharacter(_ byte: UInt8) -> JSONParseError {
    JSONParseError(
      offset: index, reason: "unescaped control character 0x\(JSONReader.hex2(byte)) in string at byte \(index)")
  }

  private func invalidUTF8(_ offset: Int) -> JSONParseError {
    JSONParseError(offset: offset, reason: "invalid UTF-8 at byte \(offset)")
  }

  private func badUnicodeEscape(_ offset: Int) -> JSONParseError {
    JSONParseError(offset: offset, reason: "invalid \\u escape at byte \(offset)")
  }

  private func loneSurrogate(_ unit: UInt16, _ offset: Int) -> JSONParseError {
    let text = JSONReader.hex2(UInt8(unit >> 8)) + JSONReader.hex2(UInt8(unit & 0xFF))
    return JSONParseError(offset: offset, reason: "lone surrogate \\u\(text) at byte \(offset)")
  }
}
