/// Scanning without building values: the checks `JSONReader` makes, minus the strings
/// and trees, for text that is copied as it came.
extension JSONPullReader {
  /// Steps over a string under the cursor that has no escapes, checking its UTF-8 and
  /// refusing raw control characters; false (cursor anywhere) when it has an escape or
  /// is invalid.
  mutating func scanPlainString() -> Bool {
    reader.index += 1
    while true {
      // Plain ASCII a word at a time; it stops only at the bytes below.
      reader.index = plainASCIIEnd(from: reader.index)
      guard reader.index < reader.count else { return false }
      let byte = reader.base[reader.index]
      if byte == UInt8(ascii: "\"") {
        reader.index += 1
        return true
      } else if byte == UInt8(ascii: "\\") || byte < 0x20 {
        return false
      } else if (try? reader.skipUTF8Sequence()) == nil {
        return false
      }
    }
  }

  /// Steps over one value written compactly (no whitespace between tokens, no escapes
  /// in strings), nested at most `maxDepth` (and 64) containers deep.  False when the
  /// value is anything else; the caller then parses it in full.
  mutating func scanCompact(maxDepth: Int) -> Bool {
    // Bit k set: the container at depth k + 1 is an object.
    var objects: UInt64 = 0
    var depth = 0
    let limit = min(maxDepth, 64)
    @inline(__always) func byte() -> UInt8? {
      reader.index < reader.count ? reader.base[reader.index] : nil
    }
    /// A member name and its colon, under the cursor.
    @inline(__always) func name() -> Bool {
      guard byte() == UInt8(ascii: "\""), scanPlainString(), byte() == UInt8(ascii: ":") else { return false }
      reader.index += 1
      return true
    }
    while true {
      // One value.
      guard let first = byte() else { return false }
      switch first {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard depth < limit else { return false }
        let isObject = first == UInt8(ascii: "{")
        reader.index += 1
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if byte() == close {
          reader.index += 1
        } else {
          if isObject { objects |= 1 << UInt64(depth) } else { objects &= ~(1 << UInt64(depth)) }
          depth += 1
          if isObject, !name() { return false }
          continue
        }
      case UInt8(ascii: "\""):
        guard scanPlainString() else { return false }
      case UInt8(ascii: "t"):
        guard (try? reader.readLiteral("true")) != nil else { return false }
      case UInt8(ascii: "f"):
        guard (try? reader.readLiteral("false")) != nil else { return false }
      case UInt8(ascii: "n"):
        guard (try? reader.readLiteral("null")) != nil else { return false }
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard (try? reader.scanNumber()) != nil else { return false }
      default:
        return false
      }
      // After a value: a separator, or closing brackets.
      while true {
        guard depth > 0 else { return true }
        let isObject = objects & (1 << UInt64(depth - 1)) != 0
        guard let next = byte() else { return false }
        if next == UInt8(ascii: ",") {
          reader.index += 1
          if isObject, !name() { return false }
          break
        }
        guard next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
        reader.index += 1
        depth -= 1
      }
    }
  }
}
