import XCTest

@testable import JSONRPC

/// `Framer` in both framings, fed in every possible chunk size.
final class FramerTests: XCTestCase {
  /// A comparable copy of a `FrameEvent`.
  enum Event: Equatable, CustomStringConvertible {
    case message(String)
    case oversized(Int)
    case malformed(String, Bool)

    var description: String {
      switch self {
      case .message(let text): "message(\(text.debugDescription))"
      case .oversized(let limit): "oversized(\(limit))"
      case .malformed(let reason, let fatal): "malformed(\(reason), fatal: \(fatal))"
      }
    }
  }

  /// Feeds `stream` in chunks of `chunkSize` (0 = one shot) and records the events,
  /// checking after every chunk that the framer buffers no more than it may.
  func run(_ stream: [UInt8], limit: Int, chunkSize: Int = 0, framer: inout Framer) -> [Event] {
    var events: [Event] = []
    let size = chunkSize == 0 ? max(1, stream.count) : chunkSize
    var start = 0
    while start < stream.count {
      let end = min(stream.count, start + size)
      let chunk = Array(stream[start..<end])
      framer.feed(chunk) { event in
        switch event {
        case .message(let bytes): events.append(.message(String(decoding: bytes, as: UTF8.self)))
        case .oversized(let limit): events.append(.oversized(limit))
        case .malformed(let reason, let fatal): events.append(.malformed(reason, fatal))
        }
      }
      XCTAssertLessThanOrEqual(framer.buffer.count, limit + Framer.maxHeaderBytes)
      start = end
    }
    return events
  }

  func run(_ stream: String, limit: Int = 64, chunkSize: Int = 0) -> [Event] {
    var framer = Framer(maxMessageBytes: limit)
    return run(Array(stream.utf8), limit: limit, chunkSize: chunkSize, framer: &framer)
  }

  /// Asserts every chunk size from 1 to the whole stream gives `expected`.
  func assertChunkAgnostic(
    _ stream: String, limit: Int = 64, _ expected: [Event], file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(run(stream, limit: limit), expected, file: file, line: line)
    for size in 1...Array(stream.utf8).count {
      XCTAssertEqual(run(stream, limit: limit, chunkSize: size), expected, "chunk size \(size)", file: file, line: line)
    }
  }

  let longLine = String(repeating: "x", count: 200)

  func testNewlineStream() {
    let stream = "\r\n  \n{\"a\":1}\r\n\n  \t\n[1,2]\n  {\"b\":\"x\"}  \n\(longLine)\n{\"after\":true}\n{\"partial\""
    assertChunkAgnostic(
      stream,
      [
        .message("{\"a\":1}\r"), .message("[1,2]"), .message("  {\"b\":\"x\"}  "), .oversized(64),
        .message("{\"after\":true}"),
      ])
    var framer = Framer(maxMessageBytes: 64)
    _ = run(Array(stream.utf8), limit: 64, framer: &framer)
    XCTAssertEqual(framer.framing, .newlineDelimited)
  }

  func testOversizedLineIsReportedOnceAndSkippedWithoutBuffering() {
    var framer = Framer(maxMessageBytes: 100)
    let huge = [UInt8](repeating: UInt8(ascii: "7"), count: 1_000_000) + Array("\n[1]\n".utf8)
    let events = run(huge, limit: 100, chunkSize: 4096, framer: &framer)
    XCTAssertEqual(events, [.oversized(100), .message("[1]")])
  }

  func testLineOfExactlyTheLimitPasses() {
    let line = "[" + String(repeating: "1,", count: 30) + "11]"  // 64 bytes
    assertChunkAgnostic(line + "\n" + line + " \n", [.message(line), .oversized(64)])
  }

  func testContentLengthStream() {
    let big = "[" + String(repeating: "0,", count: 100) + "0]"
    let stream =
      "Content-Length: 7\r\n\r\n{\"a\":1}"
      + "content-type: application/json; charset=utf-8\r\nCONTENT-LENGTH:5\r\n\r\n[1,2]"
      + "\r\n"  // a stray blank line between messages is skipped
      + "Content-Length: \(big.utf8.count)\r\n\r\n\(big)"
      + "Content-length: 2\nContent-Length: 2\n\n{}"
      + "Content-Length: 0\r\n\r\n"
      + "Content-Length: 3\r\n\r\n\n1\n"
      + "Content-Length: 9\r\n\r\n[\"part"
    assertChunkAgnostic(
      stream,
      [
        .message("{\"a\":1}"), .message("[1,2]"), .oversized(64), .message("{}"), .message(""),
        .message("\n1\n"),
      ])
    var framer = Framer(maxMessageBytes: 64)
    _ = run(Array(stream.utf8), limit: 64, framer: &framer)
    XCTAssertEqual(framer.framing, .contentLength)
  }

  func testOversizedBodyIsSkippedWithoutBuffering() {
    var framer = Framer(maxMessageBytes: 100)
    let stream =
      Array("Content-Length: 1000000\r\n\r\n".utf8) + [UInt8](repeating: 0x20, count: 1_000_000)
      + Array("Content-Length: 2\r\n\r\n[]".utf8)
    XCTAssertEqual(run(stream, limit: 100, chunkSize: 3000, framer: &framer), [.oversized(100), .message("[]")])
  }

  func testBrokenHeadersAreFatal() {
    let cases: [(String, String)] = [
      ("Content-Type: text/plain\r\n\r\n{}", "missing Content-Length header"),
      ("Content-Length: abc\r\n\r\n{}", "invalid Content-Length 'abc'"),
      ("Content-Length: -5\r\n\r\n{}", "invalid Content-Length '-5'"),
      ("Content-Length: \r\n\r\n{}", "invalid Content-Length ''"),
      ("Content-Length: 99999999999999999999\r\n\r\n", "invalid Content-Length '99999999999999999999'"),
      ("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "conflicting Content-Length headers (2 and 3)"),
      ("Content-Length 2\r\n\r\n{}", "malformed header line 'Content-Length 2'"),
      ("Content-Length: 2\r\n\r\n{}Content-Length: x\r\n\r\n[]", "invalid Content-Length 'x'"),
    ]
    for (stream, reason) in cases {
      let prefix: [Event] = stream.hasPrefix("Content-Length: 2\r\n\r\n{}C") ? [.message("{}")] : []
      assertChunkAgnostic(stream + "Content-Length: 2\r\n\r\n[]", prefix + [.malformed(reason, true)])
    }
  }

  func testHeaderBlockLimit() {
    let filler = "X-Filler: " + String(repeating: "a", count: 100) + "\r\n"
    let stream = "Content-Length: 2\r\n" + String(repeating: filler, count: 90) + "\r\n{}"
    for size in [1, 7, 100, 4096, stream.utf8.count] {
      XCTAssertEqual(run(stream, chunkSize: size), [.malformed("header block larger than 8192 bytes", true)])
    }
    // An endless header line is cut off too, without buffering it all.
    var framer = Framer(maxMessageBytes: 64)
    let endless = Array("Content-Length: 2\r\nX: ".utf8) + [UInt8](repeating: 0x61, count: 100_000)
    XCTAssertEqual(
      run(endless, limit: 64, chunkSize: 1000, framer: &framer),
      [.malformed("header block larger than 8192 bytes", true)])
    // Just under the limit is fine.
    let fits = "Content-Length: 2\r\n" + String(repeating: filler, count: 70) + "\r\n{}"
    XCTAssertEqual(run(fits), [.message("{}")])
  }

  func testNothingAfterAFatalError() {
    var framer = Framer(maxMessageBytes: 64)
    var events = run(Array("Content-Length: x\r\n\r\n".utf8), limit: 64, framer: &framer)
    events += run(Array("Content-Length: 2\r\n\r\n{}".utf8), limit: 64, framer: &framer)
    XCTAssertEqual(events, [.malformed("invalid Content-Length 'x'", true)])
  }

  func testFramingDetection() {
    var framer = Framer(maxMessageBytes: 64)
    XCTAssertEqual(run(Array(" \r\n\t".utf8), limit: 64, framer: &framer), [])
    XCTAssertNil(framer.framing)
    XCTAssertEqual(run(Array("  5\n".utf8), limit: 64, framer: &framer), [.message("5")])
    XCTAssertEqual(framer.framing, .newlineDelimited)
    XCTAssertEqual(run("\"s\"\n"), [.message("\"s\"")])
    XCTAssertEqual(run("\n\ncontent-length: 1\r\n\r\n1"), [.message("1")])
    // Garbage that is not a letter goes to newline mode and reaches the parser.
    XCTAssertEqual(run("#!\n"), [.message("#!")])
  }

  func testMessagesInsideTheChunkAreNotCopied() {
    let bytes = Array("{\"a\":1}\nContent".utf8)
    var framer = Framer(maxMessageBytes: 64)
    bytes.withUnsafeBytes { chunk in
      framer.feed(chunk) { event in
        guard case .message(let message) = event else { return XCTFail() }
        XCTAssertEqual(message.baseAddress, chunk.baseAddress)
        XCTAssertEqual(message.count, 7)
      }
    }
  }

  func testAppendFrame() {
    var out: [UInt8] = []
    Framer.appendFrame(Array("{}".utf8), framing: .newlineDelimited, to: &out)
    Framer.appendFrame(Array("[1]".utf8), framing: .contentLength, to: &out)
    XCTAssertEqual(String(decoding: out, as: UTF8.self), "{}\nContent-Length: 3\r\n\r\n[1]")
  }

  /// Frames written by `appendFrame` come back unchanged through `feed`.
  func testWrittenFramesReadBack() {
    let payloads = [#"{"jsonrpc":"2.0","id":1,"result":"é\n"}"#, "[]", #"{"x":"\u2028"}"#].map {
      try! JSONParser.parse($0).encoded()
    }
    for framing in [Framing.newlineDelimited, .contentLength] {
      var stream: [UInt8] = []
      for payload in payloads { Framer.appendFrame(payload, framing: framing, to: &stream) }
      for size in [1, 5, stream.count] {
        var framer = Framer(maxMessageBytes: 1024)
        let events = run(stream, limit: 1024, chunkSize: size, framer: &framer)
        XCTAssertEqual(events, payloads.map { .message(String(decoding: $0, as: UTF8.self)) }, "\(framing)")
        XCTAssertEqual(framer.framing, framing)
      }
    }
  }
}
