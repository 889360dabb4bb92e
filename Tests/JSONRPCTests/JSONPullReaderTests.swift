import XCTest

@testable import JSONRPC

/// The pull reader's word-at-a-time scans must read exactly what the parser reads:
/// every string length around the 8-byte steps and the 15-byte inline limit, strings
/// ending near the end of the buffer, escapes, non-ASCII text and control characters.
final class JSONPullReaderTests: XCTestCase {
  /// The string value at the start of `bytes` as the pull reader reads it, and where it
  /// stopped.
  private func pulled(_ bytes: [UInt8]) -> (String?, Int) {
    bytes.withUnsafeBytes { raw in
      var r = JSONPullReader(raw)
      let s = r.string()
      return (s, r.reader.index)
    }
  }

  /// The same string as the parser reads it (as an array element, so any text is a
  /// document), or nil when it refuses it.
  private func parsed(_ bytes: [UInt8]) -> String? {
    guard case .array(let items)? = try? JSONParser.parse(Array("[".utf8) + bytes + Array("]".utf8)),
      items.count == 1, case .string(let s) = items[0]
    else { return nil }
    return s
  }

  private var pieces: [String] {
    ["a", "é", "\\n", "\\u0041", "\\\"", "\u{7F}", "😀", "\t", "\u{1}"]
  }

  func testStringsOfEveryLengthReadAsTheParserReadsThem() {
    for length in 0...40 {
      let plain = String(repeating: "x", count: length)
      for text in [plain] + pieces.map({ plain + $0 }) + pieces.map({ $0 + plain }) {
        let quoted = Array("\"\(text)\"".utf8)
        let (value, end) = pulled(quoted)
        XCTAssertEqual(value, parsed(quoted), text)
        if value != nil { XCTAssertEqual(end, quoted.count, text) }
        // The same text followed by more bytes, as inside a message.
        XCTAssertEqual(pulled(quoted + Array(",\"k\":1}".utf8)).0, value, text)
        // Unterminated: refused wherever the buffer ends.
        XCTAssertNil(pulled(Array(quoted.dropLast())).0, text)
      }
    }
  }

  func testInvalidUTF8IsRefused() {
    for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0x61, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
      XCTAssertNil(pulled(bytes).0)
      XCTAssertNil(parsed(bytes))
    }
  }

  func testNamesCompareByLengthAndEveryByte() {
    let words: [StaticString] = [
      "", "a", "id", "app", "body", "title", "method", "jsonrpc", "userInfo", "identifier",
      "threadIdentifier", "categoryIdentifier", "targetContentIdentifier",
    ]
    for word in words {
      let text = word.description
      let bytes = Array(text.utf8)
      XCTAssertTrue(name(bytes) { $0.is(word) }, text)
      // One byte changed anywhere, one more or one fewer: a different name.
      for k in bytes.indices {
        var other = bytes
        other[k] ^= 0x20
        XCTAssertFalse(name(other) { $0.is(word) }, text)
      }
      XCTAssertFalse(name(bytes + [0x61]) { $0.is(word) }, text)
      if !bytes.isEmpty { XCTAssertFalse(name(Array(bytes.dropLast())) { $0.is(word) }, text) }
    }
  }

  func testNameTextIsItsBytes() {
    for text in ["ping", "scheduleLocal", "x", "", "getNotificationSettings", "é", "añadir", "abcdefghijklmn😀"] {
      XCTAssertEqual(name(Array(text.utf8)) { $0.text }, text)
    }
  }

  func testMemberNamesAreReadAsThePathExpects() {
    for text in [
      #"{"a":1}"#, #"{ "identifier" : 1 }"#, #"{"threadIdentifier":1}"#, #"{"x\"y":1}"#, #"{"é":1}"#, #"{"ab"#,
    ] {
      let result: String? = Array(text.utf8).withUnsafeBytes { raw in
        var r = JSONPullReader(raw)
        var first = true
        guard r.beginObject(), case .name(let n) = r.nextMember(&first) else { return nil }
        return n.text
      }
      let expected: String? =
        switch text {
        case #"{"a":1}"#: "a"
        case #"{ "identifier" : 1 }"#: "identifier"
        case #"{"threadIdentifier":1}"#: "threadIdentifier"
        default: nil  // escapes, non-ASCII and unterminated names go to the general path
        }
      XCTAssertEqual(result, expected, text)
    }
  }

  func testALikelyMemberIsReadAsAnyOther() {
    // Each object's members read twice, once guessing every name as `id` or `method`:
    // the same names, ends and cursor positions either way.
    let objects = [
      #"{"id":1,"method":2}"#, #"{"method":1,"id":2}"#, #"{ "id" : 1 , "method" : 2 }"#, #"{"idx":1,"metho":2}"#,
      #"{"id":1,"method" :2}"#, #"{"id"}"#, #"{"id":"#, #"{"id""#, #"{"id"#, #"{"#, #"{}"#, #"{"id":1,}"#,
      #"{"id":1"method":2}"#, #"{"id":1,"method"}"#, #"{"é":1}"#, #"{"id"":1}"#,
    ]
    for text in objects {
      for guess in [0, 1, 2] {
        let bytes = Array(text.utf8)
        let (plain, guessed) = bytes.withUnsafeBytes { raw in
          (Self.members(raw, guess: nil), Self.members(raw, guess: guess))
        }
        XCTAssertEqual(plain, guessed, "\(text) \(guess)")
      }
    }
  }

  /// The members `nextMember` reads (name or end or other, and the cursor after each),
  /// each guessed as `id`, `method`, or (2) the wrong one of the two, or none (nil).
  private static func members(_ raw: UnsafeRawBufferPointer, guess: Int?) -> [String] {
    var r = JSONPullReader(raw)
    guard r.beginObject() else { return ["not an object"] }
    var first = true
    var read: [String] = []
    for k in 0..<4 {
      let member: JSONPullReader.Member
      switch guess {
      case nil: member = r.nextMember(&first)
      case 0?: member = k == 0 ? r.nextMember(&first, likely: "id") : r.nextMember(&first, likely: "method")
      case 1?: member = k == 0 ? r.nextMember(&first, likely: "method") : r.nextMember(&first, likely: "id")
      default: member = r.nextMember(&first, likely: "i")
      }
      switch member {
      case .name(let n):
        read.append("name \(n.text) at \(r.reader.index)")
        // Skips the value (a one-digit number here) when there is one.
        if r.peek().map({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) == true { r.reader.index += 1 }
      case .end:
        read.append("end at \(r.reader.index)")
        return read
      case .other:
        read.append("other")
        return read
      }
    }
    return read
  }

  func testBooleansAndTheirPrefixes() {
    let cases: [(String, Bool?)] = [
      ("true", true), ("false", false), (" true", true), ("tru", nil), ("fals", nil), ("t", nil), ("f", nil),
      ("trUe", nil), ("falsE", nil), ("null", nil), ("", nil), ("true,", true), ("false}", false),
    ]
    for (text, expected) in cases {
      let value: Bool? = Array(text.utf8).withUnsafeBytes { raw in
        var r = JSONPullReader(raw)
        return r.bool()
      }
      XCTAssertEqual(value, expected, text)
    }
  }

  func testNumberTextIsExact() {
    for text in ["0", "-1", "12345678901234567890", "1.5e-3", "-0.0E+10"] {
      let value: String? = Array(text.utf8).withUnsafeBytes { raw in
        var r = JSONPullReader(raw)
        return r.numberText()
      }
      XCTAssertEqual(value, text)
    }
  }

  func testDoublesReadAsTheTextReads() {
    for text in [
      "0", "1", "86400", "123456789012345", "1234567890123456", "12345678901234567890", "-5", "01", "1.5", "2e3",
      "2E-3", "7,", "7}", "7 ", "1.", "1e", "-", "0.25", "1e999", "60.0",
    ] {
      let value: (Double?, Int) = Array(text.utf8).withUnsafeBytes { raw in
        var r = JSONPullReader(raw)
        let d = r.double()
        return (d, r.reader.index)
      }
      // What the parser accepts as a number at the start of the text, read by `Double`.
      let prefix = text.prefix { !",} ".contains($0) }
      let expected: Double? =
        switch try? JSONParser.parse(String(prefix)) {
        case .number(let n)?: Double(n)
        default: nil
        }
      if text == "01" {
        // The reader stops after the "0"; the caller then refuses the "1".
        XCTAssertEqual(value.0, 0)
        XCTAssertEqual(value.1, 1)
      } else {
        XCTAssertEqual(value.0, expected, text)
        if expected != nil { XCTAssertEqual(value.1, prefix.utf8.count, text) }
      }
    }
  }

  /// `body` applied to `bytes` read as a member name.
  private func name<T>(_ bytes: [UInt8], _ body: (JSONPullReader.Name) -> T) -> T {
    bytes.withUnsafeBufferPointer { buffer in
      // A name never has a null start: give an empty one a real address.
      var empty: UInt8 = 0
      return withUnsafePointer(to: &empty) { fallback in
        body(JSONPullReader.Name(start: buffer.baseAddress ?? fallback, count: buffer.count))
      }
    }
  }
}
