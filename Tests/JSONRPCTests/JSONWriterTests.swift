import JSONRPC
import XCTest

/// `JSONWriter` output and parse/encode round trips.
final class JSONWriterTests: XCTestCase {
  func text(_ value: JSONValue) -> String { String(decoding: value.encoded(), as: UTF8.self) }

  func testCompactOutput() {
    XCTAssertEqual(text(.null), "null")
    XCTAssertEqual(text(.bool(true)), "true")
    XCTAssertEqual(text(.number("1.50e3")), "1.50e3")
    XCTAssertEqual(text(.array([])), "[]")
    XCTAssertEqual(text(.object([])), "{}")
    XCTAssertEqual(
      text(.object(["a": .array([.int(1), .null, .string("x")]), "b": .object(["c": .bool(false)])])),
      #"{"a":[1,null,"x"],"b":{"c":false}}"#)
  }

  func testStringEscaping() {
    XCTAssertEqual(text(.string("a\"b\\c/d")), #""a\"b\\c/d""#)
    XCTAssertEqual(text(.string("\u{8}\u{c}\n\r\t")), #""\b\f\n\r\t""#)
    XCTAssertEqual(text(.string("\u{0}\u{1}\u{1f}\u{7f}")), "\"\\u0000\\u0001\\u001f\u{7f}\"")
    XCTAssertEqual(text(.string("é€😀\u{2028}")), "\"é€😀\u{2028}\"")
    XCTAssertEqual(text(.object([JSONMember("k\n", .string(""))])), #"{"k\n":""}"#)
  }

  func testWriterStructAppends() {
    var writer = JSONWriter()
    writer.write(.array([.int(1)]))
    writer.writeString("x\ny")
    XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), #"[1]"x\ny""#)
  }

  func testNonContiguousStringsAreEscapedToo() {
    // A substring-derived string is still native; this checks the ordinary path
    // agrees with a string built piece by piece.
    var built = ""
    for piece in ["a", "\n", "é", "\"", "b"] { built += piece }
    XCTAssertEqual(text(.string(built)), #""a\né\"b""#)
  }

  func testNeverEmitsRawNewline() {
    var all = ""
    for scalar in 0..<0x80 { all.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
    let value: JSONValue = .object([
      JSONMember(all, .array([.string(all), .string("line1\nline2\r\n"), .object([JSONMember("\n", .string("\n"))])]))
    ])
    let bytes = value.encoded()
    XCTAssertFalse(bytes.contains(0x0A))
    XCTAssertFalse(bytes.contains(0x0D))
    XCTAssertFalse(bytes.contains { $0 < 0x20 })
    XCTAssertEqual(try JSONParser.parse(bytes), value)
  }

  func testRoundTrips() throws {
    let values: [JSONValue] = [
      .null, .bool(false), .number("0"), .number("-12.5E-7"), .number("123456789012345678901234567890"),
      .string(""), .string("plain"), .string("tab\there"), .string("quote \" backslash \\ slash /"),
      .string("\u{0}\u{1}\u{1e}\u{1f} controls"), .string("é ü ß 日本語 한국어 العربية"),
      .string("emoji 😀👍🏽🇫🇷 and 𝄞"), .string("\u{FEFF}bom in the middle\u{FFFF}"),
      .string("\u{10FFFF}"), .string("\u{2028}\u{2029}"),
      .array([]), .object([]), .array([.array([.array([])])]),
      .object([JSONMember("dup", .int(1)), JSONMember("dup", .int(2))]),
      .object([
        "jsonrpc": .string("2.0"), "id": .number("1e3"), "method": .string("x"),
        "params": .object(["nested": .array([.bool(true), .null, .double(2.5), .string("\n")])]),
      ]),
    ]
    for value in values {
      XCTAssertEqual(try JSONParser.parse(value.encoded()), value, "\(value)")
      XCTAssertEqual(try JSONParser.parse(JSONValue.array([value, value]).encoded()), .array([value, value]))
    }
  }

  func testEscapedInputRoundTrips() throws {
    let source = #"{"s":"\u0041\u00e9\u20ac\ud83d\ude00\n\/\"","t":[1,-0.5e10,true]}"#
    let value = try JSONParser.parse(source)
    XCTAssertEqual(String(decoding: value.encoded(), as: UTF8.self), #"{"s":"Aé€😀\n/\"","t":[1,-0.5e10,true]}"#)
    XCTAssertEqual(try JSONParser.parse(value.encoded()), value)
  }

  func testIntegersAreWrittenAsTheirDescription() {
    for value: Int64 in [0, 1, -1, 9, 10, -10, 99, 1_767_254_400_000, .max, .min] {
      var out: [UInt8] = []
      JSONWriter.appendInteger(value, to: &out)
      XCTAssertEqual(String(decoding: out, as: UTF8.self), String(value))
    }
    for value: UInt64 in [0, 7, 4_611_686_018_427_387_904, .max] {
      var out: [UInt8] = []
      JSONWriter.appendInteger(value, to: &out)
      XCTAssertEqual(String(decoding: out, as: UTF8.self), String(value))
    }
  }
}
