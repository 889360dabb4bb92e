import JSONRPC
import XCTest

/// `ByteWriter.appendString` copies eight (or four) bytes at a time and goes byte by byte
/// only near an escape and at the end: every length and every position of a byte to
/// escape, against the array writer and a plain reference escaper.
final class ByteWriterEscapeTests: XCTestCase {
  /// JSON escaping one byte at a time, as the spec says: the reference.
  func reference(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for b in bytes {
      switch b {
      case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
      case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
      case 0x08: out += Array(#"\b"#.utf8)
      case 0x0C: out += Array(#"\f"#.utf8)
      case 0x0A: out += Array(#"\n"#.utf8)
      case 0x0D: out += Array(#"\r"#.utf8)
      case 0x09: out += Array(#"\t"#.utf8)
      case 0..<0x20: out += Array(String(format: "\\u%04x", b).utf8)
      default: out.append(b)
      }
    }
    out.append(UInt8(ascii: "\""))
    return out
  }

  func check(_ bytes: [UInt8], reserveFirst: Bool, file: StaticString = #filePath, line: UInt = #line) {
    let written = bytes.withUnsafeBufferPointer { utf8 in
      var writer = ByteWriter(capacity: 1)
      writer.append(UInt8(ascii: "["))
      if reserveFirst {
        writer.reserve(ByteWriter.quotedRoom(utf8.count))
        writer.appendStringReserved(utf8: utf8)
      } else {
        writer.appendString(utf8: utf8)
      }
      writer.append(UInt8(ascii: "]"))
      return writer.finish()
    }
    let expected = [UInt8(ascii: "[")] + reference(bytes) + [UInt8(ascii: "]")]
    XCTAssertEqual(written, expected, "\(bytes)", file: file, line: line)
    var array: [UInt8] = []
    bytes.withUnsafeBufferPointer { JSONWriter.appendString(utf8: $0, to: &array) }
    XCTAssertEqual(array, reference(bytes), "\(bytes)", file: file, line: line)
  }

  func testEveryLengthAndPositionOfAnEscape() {
    // Plain bytes next to the ones to escape, and bytes the word test may flag wrongly.
    let plain: [UInt8] = Array("ab#[]!~ \u{7f}".utf8) + [0xC3, 0xA9, 0xFF, 0x80]
    let special: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1F]
    for length in 0...26 {
      let base = (0..<length).map { plain[$0 % plain.count] }
      check(base, reserveFirst: false)
      check(base, reserveFirst: true)
      for position in 0..<length {
        for s in special {
          var bytes = base
          bytes[position] = s
          check(bytes, reserveFirst: position % 2 == 0)
          // A second escape further on, and a run of them.
          if position + 3 < length {
            bytes[position + 3] = UInt8(ascii: "\"")
            check(bytes, reserveFirst: position % 2 == 1)
          }
        }
      }
      check([UInt8](repeating: 0x0A, count: length), reserveFirst: true)
      check([UInt8](repeating: 0x22, count: length), reserveFirst: false)
    }
  }
}
