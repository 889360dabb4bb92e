/// The cursor behind `JSONParser`: one forward pass over the bytes with an explicit
/// stack of open containers.
///
/// Reading through a raw `UnsafePointer<UInt8>` with our own bounds checks keeps the hot
/// loops free of the per-access checks that `Array` subscripts would add.
@usableFromInline
struct JSONReader {
  @usableFromInline let base: UnsafePointer<UInt8>
  @usableFromInline let count: Int
  let maxDepth: Int
  @usableFromInline var index = 0

  /// An array or object whose closing bracket has not been seen yet.
  private struct Container {
    var isObject: Bool
    var elements: [JSONValue] = []
    var members: [JSONMember] = []
    /// The name read before the value currently being parsed (objects only).
    var pendingName = ""
  }

  /// A one-byte stand-in so that an empty buffer still has a valid base address; it is
  /// never written after initialisation, hence safe to share.
  nonisolated(unsafe) private static let emptyByte: UnsafeMutablePointer<UInt8> = {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    p.initialize(to: 0)
    return p
  }()

  init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) {
    if let address = bytes.baseAddress, bytes.count > 0 {
      base = UnsafePointer(address.assumingMemoryBound(to: UInt8.self))
    } else {
      base = UnsafePointer(JSONReader.emptyByte)
    }
    count = bytes.count
    self.maxDepth = maxDepth
  }

  /// Parses the whole buffer as exactly one JSON text surrounded by optional whitespace.
  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
      throw JSONParseError(offset: 0, reason: "byte order mark at byte 0 (a UTF-8 BOM is not allowed)")
    }
    let value = try parseValue()
    skipWhitespace()
    guard index == count else { throw unexpected() }
    return value
  }

  /// Parses one value starting at the cursor (after optional whitespace) and leaves the
  /// cursor just after it.  `maxDepth` counts from this value.
  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    var stack: [Container] = []
    var value: JSONValue
    nextValue: while true {
      skipWhitespace()
      guard index < count else { throw unexpectedEnd() }
      let byte = base[index]
      switch byte {
      case UInt8(ascii: "{"):
        guard stack.count < maxDepth else { throw tooDeep() }
        index += 1
        skipWhitespace()
        if index < count, base[index] == UInt8(ascii: "}") {
          index += 1
          value = .object([])
        } else {
          let name = try readName()
          var container = Container(isObject: true, pendingName: name)
          // Requests are made of small objects: one allocation up front replaces the
          // 1, 2, 4, 8 growth steps.
          container.members.reserveCapacity(8)
          stack.append(container)
          continue nextValue
        }
      case UInt8(ascii: "["):
        guard stack.count < maxDepth else { throw tooDeep() }
        index += 1
        skipWhitespace()
        if index < count, base[index] == UInt8(ascii: "]") {
          index += 1
          value = .array([])
        } else {
          var container = Container(isObject: false)
          container.elements.reserveCapacity(8)
          stack.append(container)
          continue nextValue
        }
      default:
        value = try readScalar(byte)
      }
      // `value` is complete: hand it to the innermost container, closing containers
      // for as long as their closing brackets follow.
      while true {
        guard !stack.isEmpty else { return value }
        let top = stack.count - 1
        let isObject = stack[top].isObject
        if isObject {
          stack[top].members.append(JSONMember(stack[top].pendingName, value))
        } else {
          stack[top].elements.append(value)
        }
        skipWhitespace()
        guard index < count else { throw unexpectedEnd() }
        let separator = base[index]
        if separator == UInt8(ascii: ",") {
          index += 1
          if isObject {
            skipWhitespace()
            stack[top].pendingName = try readName()
          }
          continue nextValue
        } else if isObject, separator == UInt8(ascii: "}") {
          index += 1
          value = .object(stack.removeLast().members)
        } else if !isObject, separator == UInt8(ascii: "]") {
          index += 1
          value = .array(stack.removeLast().elements)
        } else {
          throw unexpected()
        }
      }
    }
  }

  /// Reads `"name"` and the `:` after it, leaving the cursor before the member's value.
  private mutating func readName() throws(JSONParseError) -> String {
    guard index < count else { throw unexpectedEnd() }
    guard base[index] == UInt8(ascii: "\"") else { throw unexpected() }
    let name = try readString()
    skipWhitespace()
    guard index < count else { throw unexpectedEnd() }
    guard base[index] == UInt8(ascii: ":") else { throw unexpected() }
    index += 1
    return name
  }

  /// Reads a string, number or literal starting with `byte` at the cursor.
  private mutating func readScalar(_ byte: UInt8) throws(JSONParseError) -> JSONValue {
    switch byte {
    case UInt8(ascii: "\""): return .string(try readString())
    case UInt8(ascii: "t"):
      try readLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try readLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try readLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
    default: throw unexpected()
    }
  }

  @usableFromInline
  mutating func readLiteral(_ word: StaticString) throws(JSONParseError) {
    let letters = word.utf8Start
    for k in 0..<word.utf8CodeUnitCount {
      guard index < count else { throw unexpectedEnd() }
      guard base[index] == letters[k] else { throw unexpected() }
      index += 1
    }
  }

  /// Skips RFC 8259 whitespace: space, tab, LF and CR only.
  @inlinable @inline(__always)
  mutating func skipWhitespace() {
    while index < count {
      switch base[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  // MARK: Errors

  func unexpectedEnd() -> JSONParseError {
    JSONParseError(offset: index, reason: "unexpected end of input at byte \(index)")
  }

  /// "unexpected character 'x' at byte N" for the byte under the cursor.
  func unexpected() -> JSONParseError {
    guard index < count else { return unexpectedEnd() }
    let byte = base[index]
    if byte == 0xEF, index + 2 < count, base[index + 1] == 0xBB, base[index + 2] == 0xBF {
      return JSONParseError(offset: index, reason: "unexpected byte order mark at byte \(index)")
    }
    if byte > 0x20, byte < 0x7F {
      return JSONParseError(
        offset: index, reason: "unexpected character '\(Character(Unicode.Scalar(byte)))' at byte \(index)")
    }
    return JSONParseError(offset: index, reason: "unexpected byte 0x\(JSONReader.hex2(byte)) at byte \(index)")
  }

  func tooDeep() -> JSONParseError {
    JSONParseError(offset: index, reason: "nesting deeper than \(maxDepth) at byte \(index)")
  }

  /// Two uppercase hex digits, for error messages.
  static func hex2(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
  }
}
