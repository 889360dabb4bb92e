import JSONRPC
import XCTest

/// Behaviour of `JSONParser` beyond the JSONTestSuite files: values, errors, limits.
final class JSONParserTests: XCTestCase {
  func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

  func reason(_ bytes: [UInt8], maxDepth: Int = 512) -> String? {
    do {
      _ = try JSONParser.parse(bytes, maxDepth: maxDepth)
      return nil
    } catch {
      return error.reason
    }
  }

  func reason(_ text: String) -> String? { reason(Array(text.utf8)) }

  func testScalarsAtTopLevel() throws {
    XCTAssertEqual(try parse("null"), .null)
    XCTAssertEqual(try parse(" true "), .bool(true))
    XCTAssertEqual(try parse("\tfalse\r\n"), .bool(false))
    XCTAssertEqual(try parse("-0"), .number("-0"))
    XCTAssertEqual(try parse("1.50e+003"), .number("1.50e+003"))
    XCTAssertEqual(try parse("1e99999"), .number("1e99999"))
    XCTAssertEqual(try parse(#""hi""#), .string("hi"))
  }

  func testContainersKeepOrderAndDuplicates() throws {
    XCTAssertEqual(
      try parse(#"{"b":1,"a":[true,null,{}],"b":"x"}"#),
      .object([
        JSONMember("b", .number("1")), JSONMember("a", .array([.bool(true), .null, .object([])])),
        JSONMember("b", .string("x")),
      ]))
    XCTAssertEqual(try parse(" [ [ ] , { } ] "), .array([.array([]), .object([])]))
  }

  func testEscapesAndSurrogatePairs() throws {
    XCTAssertEqual(try parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
    XCTAssertEqual(try parse(#""\u00e9\u20AC\uD83D\uDE00""#), .string("é€😀"))
    XCTAssertEqual(try parse(#""\u0000""#), .string("\u{0}"))
    XCTAssertEqual(try parse("\"héllo 😀 日本\""), .string("héllo 😀 日本"))
  }

  func testLoneSurrogatesAreRejected() {
    XCTAssertEqual(reason(#""\uD800""#), #"lone surrogate \uD800 at byte 1"#)
    XCTAssertEqual(reason(#""ab\uDC00""#), #"lone surrogate \uDC00 at byte 3"#)
    XCTAssertEqual(reason(#""\uD800\u0041""#), #"lone surrogate \uD800 at byte 1"#)
    XCTAssertEqual(reason(#""\uD800x""#), #"lone surrogate \uD800 at byte 1"#)
  }

  func testGrammarErrors() {
    XCTAssertEqual(reason("[1,]"), "unexpected character ']' at byte 3")
    XCTAssertEqual(reason("01"), "unexpected character '1' at byte 1")
    XCTAssertEqual(reason("{\"a\" 1}"), "unexpected character '1' at byte 5")
    XCTAssertEqual(reason("NaN"), "unexpected character 'N' at byte 0")
    XCTAssertEqual(reason("[1] x"), "unexpected character 'x' at byte 4")
    XCTAssertEqual(reason("[1 // c\n]"), "unexpected character '/' at byte 3")
    XCTAssertEqual(reason(""), "unexpected end of input at byte 0")
    XCTAssertEqual(reason("  "), "unexpected end of input at byte 2")
    XCTAssertEqual(reason("[1"), "unexpected end of input at byte 2")
    XCTAssertEqual(reason("\"abc"), "unterminated string starting at byte 0")
    XCTAssertEqual(reason("\"a\nb\""), "unescaped control character 0x0A in string at byte 2")
    XCTAssertEqual(reason(#""\x""#), "invalid escape at byte 1")
    XCTAssertEqual(reason(#""\u12G4""#), #"invalid \u escape at byte 1"#)
    XCTAssertEqual(reason("[\u{0C}]"), "unexpected byte 0x0C at byte 1")
    XCTAssertEqual(reason("tru"), "unexpected end of input at byte 3")
    XCTAssertEqual(reason("1."), "unexpected end of input at byte 2")
    XCTAssertEqual(reason("1e+x"), "unexpected character 'x' at byte 3")
    XCTAssertEqual(reason("+1"), "unexpected character '+' at byte 0")
    XCTAssertEqual(reason(".5"), "unexpected character '.' at byte 0")
    XCTAssertEqual(reason("\u{A0}1"), "unexpected byte 0xC2 at byte 0")
  }

  func testByteOrderMarkIsRejected() {
    XCTAssertEqual(
      reason([0xEF, 0xBB, 0xBF] + Array("{}".utf8)), "byte order mark at byte 0 (a UTF-8 BOM is not allowed)")
    XCTAssertEqual(reason(Array(" ".utf8) + [0xEF, 0xBB, 0xBF]), "unexpected byte order mark at byte 1")
  }

  func testInvalidUTF8IsRejected() {
    let q = UInt8(ascii: "\"")
    let cases: [[UInt8]] = [
      [0xC0, 0xAF],  // overlong '/'
      [0xC1, 0xBF],  // overlong
      [0xE0, 0x80, 0xAF],  // overlong 3-byte
      [0xF0, 0x80, 0x80, 0xAF],  // overlong 4-byte
      [0xED, 0xA0, 0x80],  // encoded U+D800
      [0xED, 0xBF, 0xBF],  // encoded U+DFFF
      [0xF4, 0x90, 0x80, 0x80],  // U+110000
      [0xF5, 0x80, 0x80, 0x80],
      [0xFF],
      [0x80],  // stray continuation byte
      [0xBF],
      [0xE2, 0x82],  // truncated €
      [0xF0, 0x9F, 0x98],  // truncated 😀
      [0xC3, 0x41],  // lead byte followed by ASCII
    ]
    for bad in cases {
      XCTAssertEqual(reason([q, 0x61] + bad + [q]), "invalid UTF-8 at byte 2", "\(bad)")
    }
    // Truncated at the very end of the input.
    XCTAssertEqual(reason([q, 0xE2, 0x82]), "invalid UTF-8 at byte 1")
    // Well-formed boundaries are accepted.
    let good: [[UInt8]] = [
      [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
      [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
    ]
    for ok in good {
      XCTAssertNil(reason([q] + ok + [q]), "\(ok)")
    }
    // Outside strings non-ASCII is never valid.
    XCTAssertEqual(reason([UInt8(ascii: "[")] + [0xC3, 0xA9] + [UInt8(ascii: "]")]), "unexpected byte 0xC3 at byte 1")
  }

  func testDepthLimit() {
    let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
    XCTAssertEqual(reason(deep), "nesting deeper than 512 at byte 512")
    let deepObjects = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
    XCTAssertEqual(reason(deepObjects), "nesting deeper than 512 at byte 2560")
    let exactly512 = Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)
    XCTAssertNil(reason(exactly512))
    let over = Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8)
    XCTAssertNotNil(reason(over))
    XCTAssertEqual(reason(Array("[[1]]".utf8), maxDepth: 1), "nesting deeper than 1 at byte 1")
    XCTAssertNil(reason(Array("1".utf8), maxDepth: 0))
  }

  func testErrorCarriesOffset() {
    do {
      _ = try JSONParser.parse(Array("[1,2,x]".utf8))
      XCTFail("accepted")
    } catch {
      XCTAssertEqual(error.offset, 5)
      XCTAssertEqual("\(error)", "unexpected character 'x' at byte 5")
    }
  }

  func testParsesFromRawBuffer() throws {
    let bytes = Array(#"xx{"a":[1,"b"]}yy"#.utf8)
    let value = try bytes.withUnsafeBytes { raw in
      try JSONParser.parse(UnsafeRawBufferPointer(rebasing: raw[2..<15]))
    }
    XCTAssertEqual(value, .object(["a": .array([.number("1"), .string("b")])]))
    XCTAssertThrowsError(try [UInt8]().withUnsafeBytes { try JSONParser.parse($0) })
  }
}
