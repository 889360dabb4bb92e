import UNModel
import XCTest

@testable import UNServer

/// Log lines are read on terminals and split into records by newlines: whatever a client
/// puts in a value, a line stays one line and carries no control character (C0, DEL,
/// C1, the Unicode line and paragraph separators, the bidirectional overrides), and a
/// byte that is not UTF-8 is escaped rather than written.
final class LogLineEscapeTests: XCTestCase {
  private let log = Log(level: .debug, journal: false, sink: LogSink(fd: -1))

  /// The line for one field `k` holding `value`, without its newline; fails if the line
  /// is not exactly one safe line.
  private func line(_ value: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    let text = log.format(.info, "e", [("k", value)])
    assertOneSafeLine(Array(text.utf8), file: file, line: line)
    return String(text.dropLast())
  }

  private func assertOneSafeLine(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(bytes.last, 0x0A, "a line ends with its newline", file: file, line: line)
    let body = bytes.dropLast()
    for (i, byte) in body.enumerated() {
      XCTAssertFalse(byte < 0x20 || byte == 0x7F, "raw control byte \(byte) at \(i): \(body)", file: file, line: line)
    }
    let text = String(decoding: body, as: UTF8.self)
    XCTAssertEqual(Array(text.utf8), Array(body), "the line is valid UTF-8", file: file, line: line)
    for scalar in text.unicodeScalars {
      XCTAssertFalse(LogLineEscapeTests.unsafe(scalar.value), "raw U+\(String(scalar.value, radix: 16)) in \(text)")
    }
  }

  /// The code points no line may carry raw.
  private static func unsafe(_ v: UInt32) -> Bool {
    v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || (0x202A...0x202E).contains(v)
      || (0x2066...0x2069).contains(v)
  }

  func testEveryC0ControlAndDELIsEscaped() {
    for byte in UInt8(0)...0x1F {
      let expected: String
      switch byte {
      case 0x09: expected = #"\t"#
      case 0x0A: expected = #"\n"#
      case 0x0D: expected = #"\r"#
      default: expected = "\\x" + String(byte, radix: 16).leftPadded(to: 2)
      }
      XCTAssertEqual(line("a\(UnicodeScalar(byte))b"), #"level=info event=e k="a\#(expected)b""#, "byte \(byte)")
    }
    XCTAssertEqual(line("a\u{7F}b"), #"level=info event=e k="a\x7fb""#)
  }

  func testEveryC1ControlIsEscapedByteByByte() {
    for v in UInt32(0x80)...0x9F {
      let scalar = String(UnicodeScalar(v)!)
      let utf8 = Array(scalar.utf8)
      XCTAssertEqual(utf8.count, 2)
      let expected = utf8.map { "\\x" + String($0, radix: 16) }.joined()
      XCTAssertEqual(line("a\(scalar)b"), #"level=info event=e k="a\#(expected)b""#, "U+\(String(v, radix: 16))")
    }
  }

  /// A terminal's escape sequences (clear the screen, set the title, move the cursor) and
  /// a carriage return that would overwrite the start of the line with a forged one.
  func testEscapeSequencesAndCarriageReturnsCannotForgeOrClear() {
    XCTAssertEqual(line("\u{1B}[2J\u{1B}[H"), #"level=info event=e k="\x1b[2J\x1b[H""#)
    XCTAssertEqual(line("\u{1B}]0;pwned\u{07}"), #"level=info event=e k="\x1b]0;pwned\x07""#)
    XCTAssertEqual(
      line("x\rlevel=error event=forged"), #"level=info event=e k="x\rlevel=error event=forged""#)
    XCTAssertEqual(
      line("x\r\nlevel=error event=forged\n"), #"level=info event=e k="x\r\nlevel=error event=forged\n""#)
    // The 8-bit CSI (U+009B) is a control sequence introducer on some terminals.
    XCTAssertEqual(line("\u{9B}2J"), #"level=info event=e k="\xc2\x9b2J""#)
  }

  /// Unicode's own line breaks and the bidirectional controls that reorder what a reader
  /// sees are escaped; other text outside ASCII is written as it is.
  func testLineSeparatorsAndBidiControlsAreEscapedOtherTextIsKept() {
    XCTAssertEqual(line("a\u{2028}b\u{2029}c"), #"level=info event=e k="a\xe2\x80\xa8b\xe2\x80\xa9c""#)
    XCTAssertEqual(line("a\u{202E}b\u{2066}c"), #"level=info event=e k="a\xe2\x80\xaeb\xe2\x81\xa6c""#)
    XCTAssertEqual(line("Cześć ☕️ 🇵🇱 \u{A0}"), "level=info event=e k=\"Cześć ☕️ 🇵🇱 \u{A0}\"")
    XCTAssertEqual(
      line("\u{2027}\u{202F}\u{2065}\u{206A}"), "level=info event=e k=\"\u{2027}\u{202F}\u{2065}\u{206A}\"")
  }

  func testQuotesBackslashesAndPlainValuesAreUnchanged() {
    XCTAssertEqual(line(#"say "hi" \ now"#), #"level=info event=e k="say \"hi\" \\ now""#)
    XCTAssertEqual(line("com.example.chat"), "level=info event=e k=com.example.chat")
    XCTAssertEqual(line(""), #"level=info event=e k="""#)
    // A backslash before an escaped byte stays distinguishable from the escape.
    XCTAssertEqual(line("\\x1b\u{1B}"), #"level=info event=e k="\\x1b\x1b""#)
  }

  /// Bytes that are not UTF-8 (a lone continuation byte, a truncated sequence, an overlong
  /// form, a surrogate, beyond U+10FFFF) are each escaped as `\xNN`; a Swift string never
  /// holds them, but the line does not depend on that.
  func testBytesThatAreNotUTF8AreEscaped() {
    let cases: [([UInt8], String)] = [
      ([0x61, 0x80, 0x62], #""a\x80b""#),
      ([0xC3], #""\xc3""#),
      ([0xC3, 0x41], #""\xc3A""#),
      ([0xC0, 0x8A], #""\xc0\x8a""#),
      ([0xE0, 0x80, 0x8A], #""\xe0\x80\x8a""#),
      ([0xED, 0xA0, 0x80], #""\xed\xa0\x80""#),
      ([0xF4, 0x90, 0x80, 0x80], #""\xf4\x90\x80\x80""#),
      ([0xFF, 0xFE], #""\xff\xfe""#),
      ([0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80], "\"€😀\""),
    ]
    for (bytes, expected) in cases {
      var out = LogLine(.info, "e", journal: false)
      bytes.withUnsafeBufferPointer { out.append(quotedBytes: $0) }
      out.finish()
      let written = out.bytes
      assertOneSafeLine(written)
      XCTAssertEqual(String(decoding: written.dropLast(), as: UTF8.self), "level=info event=e" + expected, "\(bytes)")
    }
  }

  /// Every value of every way a line is built: literal keys, run-time keys (`Log.emit`),
  /// the reused event line.
  func testEveryFieldKindEscapes() {
    let hostile = "a\u{1B}[2J\r\n\u{0}\u{85}z"
    let escaped = #""a\x1b[2J\r\n\x00\xc2\x85z""#
    var built = LogLine(.warn, "e", journal: true)
    built.field("id", hostile)
    built.finish()
    assertOneSafeLine(built.bytes)
    XCTAssertEqual(String(decoding: built.bytes, as: UTF8.self), "<4>level=warn event=e id=\(escaped)\n")

    var reused = LogLine(.info, "", journal: false)
    for _ in 0..<3 {
      reused.restart(.info, "delivered", journal: false)
      reused.field("app", hostile)
      reused.field(named: "identifiers", hostile + "," + hostile)
      reused.finish()
      assertOneSafeLine(reused.bytes)
    }
    XCTAssertEqual(
      String(decoding: reused.bytes, as: UTF8.self),
      "level=info event=delivered app=\(escaped) identifiers=\(escaped.dropLast()),\(escaped.dropFirst())\n")
  }

  /// The same through the sink and a pipe: what reaches the descriptor is one line per
  /// call, however many control characters its values hold.
  func testLinesThroughTheSinkStayOneEach() {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    let piped = Log(level: .info, journal: false, sink: LogSink(fd: fds[1]))
    var all = (0...0x7F).map { String(UnicodeScalar(UInt8($0))) }
    all += (0x80...0x9F).map { String(UnicodeScalar(UInt32($0))!) }
    for (i, text) in all.enumerated() { piped.info("fired", ["app": "a\(text)", "id": "\(text)\(i)"]) }
    piped.flush()
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while bytes.filter({ $0 == 0x0A }).count < all.count {
      let n = read(fds[0], &buffer, buffer.count)
      guard n > 0 else { break }
      bytes += buffer[..<n]
    }
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
    XCTAssertEqual(lines.count, all.count)
    for (i, l) in lines.enumerated() {
      assertOneSafeLine(Array(l) + [0x0A])
      XCTAssertTrue(String(decoding: l, as: UTF8.self).hasPrefix("level=info event=fired app="), "line \(i)")
    }
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
