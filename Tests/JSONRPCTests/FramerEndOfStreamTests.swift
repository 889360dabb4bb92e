import JSONRPC
import XCTest

final class FramerEndOfStreamTests: XCTestCase {
  private func events(_ chunks: [String], finish: Bool) -> [String] {
    var framer = Framer(maxMessageBytes: 1024)
    var out: [String] = []
    let record = { (e: FrameEvent) in
      switch e {
      case .message(let m): out.append(String(decoding: m, as: UTF8.self))
      case .oversized(let limit): out.append("oversized \(limit)")
      case .malformed(let reason, let fatal): out.append("malformed \(fatal): \(reason)")
      }
    }
    for c in chunks { framer.feed(Array(c.utf8), record) }
    if finish { framer.finish(record) }
    return out
  }

  func testUnterminatedLastLineIsDeliveredAtEndOfStream() {
    XCTAssertEqual(events(["{\"a\":1}\n{\"b\"", ":2}"], finish: false), ["{\"a\":1}"])
    XCTAssertEqual(events(["{\"a\":1}\n{\"b\"", ":2}"], finish: true), ["{\"a\":1}", "{\"b\":2}"])
  }

  func testBlankTailIsIgnored() {
    XCTAssertEqual(events(["{\"a\":1}\n  \r"], finish: true), ["{\"a\":1}"])
  }

  func testTruncatedContentLengthBodyIsMalformed() {
    XCTAssertEqual(
      events(["Content-Length: 10\r\n\r\n{\"a\""], finish: true),
      ["malformed true: end of stream after 4 of 10 body bytes"])
  }
}
