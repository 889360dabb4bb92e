import JSONRPC
import XCTest

@testable import UNServer

/// The envelope fast path must decode exactly the `Request` that `RPCDecoder` decodes,
/// and leave every other input (batches, invalid requests, malformed JSON) to it.
final class RequestFastPathTests: XCTestCase {
  private func fast(_ text: String, maxDepth: Int = 512) -> RequestFastPath {
    Array(text.utf8).withUnsafeBytes { RequestFastPath.decode($0, maxDepth: maxDepth) }
  }

  private func general(_ text: String, maxDepth: Int = 512) -> Incoming {
    Array(text.utf8).withUnsafeBytes { RPCDecoder.decode($0, maxDepth: maxDepth) }
  }

  private func assertFast(_ text: String, maxDepth: Int = 512, file: StaticString = #filePath, line: UInt = #line) {
    guard case .request(let request) = fast(text, maxDepth: maxDepth) else {
      return XCTFail("fast path declined: \(text)", file: file, line: line)
    }
    XCTAssertEqual(.single(.request(request)), general(text, maxDepth: maxDepth), text, file: file, line: line)
  }

  func testRequestsOfEveryShapeDecodeAsTheGeneralPathDoes() {
    for text in [
      #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
      #"{"jsonrpc":"2.0","method":"ping"}"#,
      #"{"id":"x\"y","method":"ping","jsonrpc":"2.0"}"#,
      #" { "jsonrpc" : "2.0" , "id" : null , "method" : "ping" } "# + "\n",
      #"{"jsonrpc":"2.0","id":-0.5e7,"method":"listPending","params":{"app":"com.bench","limit":20}}"#,
      #"{"jsonrpc":"2.0","id":1,"params":{"app":"a"},"method":"listPending"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#,
      #"{"jsonrpc":"2.0","id":1,"params":null,"method":"scheduleLocal"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"nope","params":{"a":[1,{"b":"\ud83d\ude00"}]}}"#,
      // scheduleLocal with params first, or in a shape its own fast path leaves: the tree.
      #"{"jsonrpc":"2.0","id":1,"params":{"identifier":"x","content":{}},"method":"scheduleLocal"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal"}"#,
    ] {
      assertFast(text)
    }
    assertFast(#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":{"b":{}}}}"#, maxDepth: 4)
  }

  func testScheduleLocalTakesItsOwnFastPath() {
    let text = #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"identifier":"x","content":{}}}"#
    guard case .scheduleLocal = fast(text) else { return XCTFail("not decoded as scheduleLocal") }
  }

  func testEverythingElseIsLeftToTheGeneralPath() {
    for text in [
      "", "null", "[]", "{}", "\u{FEFF}" + #"{"jsonrpc":"2.0","method":"ping"}"#,
      #"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping""#,
      #"{"jsonrpc":"2.0","id":1}"#,
      #"{"id":1,"method":"ping"}"#,
      #"{"jsonrpc":"2.1","id":1,"method":"ping"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","method":"ping"}"#,
      #"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
      #"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{},"params":{}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","extra":0}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","result":0}"#,
      #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
      #"{"jsonrpc":"2.0","id":{},"method":"ping"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":7}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"p\u12"}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}"#,
      // Names the reader steps over eight bytes at a time, with the odd byte late in them.
      #"{"jsonrpc":"2.0","id":1,"method":"ping","parameters\u0073":{}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping","parametersé":{}}"#,
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"parameters\t\":{}}",
      #"{"jsonrpc":"2.0","id":1,"method":"ping","parameters"#,
    ] {
      XCTAssertEqual(fast(text), .declined, text)
    }
    // Too deep for the limit: the parser says so.
    XCTAssertEqual(
      fast(#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":{"b":{"c":{}}}}}"#, maxDepth: 4), .declined)
  }
}
