import Foundation
import JSONRPC

/// An `.apns` file read as `xcrun simctl push` reads it: Foundation's JSON reader on
/// macOS accepts a comma before a closing `}` or `]`, and many `.apns` files in the wild
/// have one.  Only those commas are tolerated (blanked out, so byte offsets stay right);
/// everything else RFC 8259 refuses (garbage after the value, a missing comma, `[,]`)
/// still fails.  The JSON-RPC parser itself stays strict.
enum APNsFile {
  /// Exit status for a payload file that cannot be used (unreadable, not JSON, not an
  /// object): a data error, not a usage error.
  static let badInputStatus: Int32 = 4

  struct DataError: Error {
    var message: String
  }

  /// The bytes with trailing commas blanked.
  static func withoutTrailingCommas(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    var inString = false
    var escaped = false
    var lastSignificant: UInt8 = 0
    var pendingComma: Int?
    for (i, b) in input.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if b == UInt8(ascii: "\\") {
          escaped = true
        } else if b == UInt8(ascii: "\"") {
          inString = false
          lastSignificant = b
        }
        continue
      }
      switch b {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        continue
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if let comma = pendingComma { bytes[comma] = UInt8(ascii: " ") }
      case UInt8(ascii: ","):
        // A comma after a value (not after `[`, `{` or another comma) may be trailing.
        let afterValue =
          lastSignificant != 0 && lastSignificant != UInt8(ascii: "[")
          && lastSignificant != UInt8(ascii: "{") && lastSignificant != UInt8(ascii: ",")
          && lastSignificant != UInt8(ascii: ":")
        pendingComma = afterValue ? i : nil
        lastSignificant = b
        continue
      case UInt8(ascii: "\""):
        inString = true
      default:
        break
      }
      pendingComma = nil
      lastSignificant = b
    }
    return bytes
  }

  /// 1-based line and column of a byte offset.
  static func position(_ offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for b in bytes.prefix(offset) {
      if b == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if b & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }

  /// The payload in `file` (`-` = standard input) as a JSON object's members.
  static func read(_ file: String) throws(DataError) -> [JSONMember] {
    let name = file == "-" ? "standard input" : file
    let bytes: [UInt8]
    if file == "-" {
      bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
    } else {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw DataError(message: "\(name): cannot read the file")
      }
      bytes = Array(data)
    }
    let value: JSONValue
    do {
      value = try JSONParser.parse(withoutTrailingCommas(bytes))
    } catch {
      let (line, column) = position(error.offset, in: bytes)
      throw DataError(message: "\(name):\(line):\(column): not valid JSON: \(error.reason)")
    }
    guard case .object(let members) = value else {
      throw DataError(message: "\(name): an APNs payload must be a JSON object, got \(value.typeName)")
    }
    return members
  }
}
