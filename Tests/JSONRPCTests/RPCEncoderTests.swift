import JSONRPC
import XCTest

/// Exact bytes of the JSON-RPC envelopes.
final class RPCEncoderTests: XCTestCase {
  func text(_ build: (inout [UInt8]) -> Void) -> String {
    var out: [UInt8] = []
    build(&out)
    return String(decoding: out, as: UTF8.self)
  }

  func testResult() {
    XCTAssertEqual(
      text { RPCEncoder.appendResult(id: .number("7"), result: .object(["ok": .bool(true)]), to: &$0) },
      #"{"jsonrpc":"2.0","id":7,"result":{"ok":true}}"#)
    XCTAssertEqual(
      text { RPCEncoder.appendResult(id: .string("a\"b"), result: .null, to: &$0) },
      #"{"jsonrpc":"2.0","id":"a\"b","result":null}"#)
    XCTAssertEqual(
      text { RPCEncoder.appendResult(id: .number("1.50"), result: .array([]), to: &$0) },
      #"{"jsonrpc":"2.0","id":1.50,"result":[]}"#)
  }

  /// The envelope is joined on the stack for short ids and written in parts for others:
  /// the same bytes either way.
  func testResultHeadForEveryIdShape() {
    let long = String(repeating: "9", count: 200)
    let ids: [(RequestID, String)] = [
      (.null, "null"), (.string("req-1"), #""req-1""#), (.string("é\n"), #""é\n""#),
      (.string("tab\t"), #""tab\t""#), (.number(long), long), (.string(long), "\"" + long + "\""),
      (.number("-0.5e3"), "-0.5e3"),
    ]
    for (id, text) in ids {
      XCTAssertEqual(
        self.text { RPCEncoder.appendResult(id: id, result: .int(1), to: &$0) },
        #"{"jsonrpc":"2.0","id":"# + text + #","result":1}"#)
      XCTAssertEqual(
        self.text { out in RPCEncoder.appendResult(id: id, to: &out) { $0.append(UInt8(ascii: "2")) } },
        #"{"jsonrpc":"2.0","id":"# + text + #","result":2}"#)
    }
  }

  func testError() {
    XCTAssertEqual(
      text { RPCEncoder.appendError(id: .null, error: .parseError("unexpected character 'x' at byte 3"), to: &$0) },
      #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: unexpected character 'x' at byte 3"}}"#
    )
    XCTAssertEqual(
      text {
        RPCEncoder.appendError(
          id: .string("q"), error: .invalidParams(field: "content.badge", "must be an integer"), to: &$0)
      },
      #"{"jsonrpc":"2.0","id":"q","error":{"code":-32602,"message":"Invalid params: content.badge: must be an integer","data":{"field":"content.badge","problem":"must be an integer"}}}"#
    )
  }

  func testNotification() {
    XCTAssertEqual(
      text { RPCEncoder.appendNotification(method: "didReceive", params: .object(["id": .string("n1")]), to: &$0) },
      #"{"jsonrpc":"2.0","method":"didReceive","params":{"id":"n1"}}"#)
    XCTAssertEqual(
      text { RPCEncoder.appendNotification(method: "ping", params: nil, to: &$0) },
      #"{"jsonrpc":"2.0","method":"ping"}"#)
  }

  func testBatch() {
    var a: [UInt8] = []
    RPCEncoder.appendResult(id: .number("1"), result: .int(1), to: &a)
    var b: [UInt8] = []
    RPCEncoder.appendError(id: .null, error: .invalidRequest("empty batch"), to: &b)
    XCTAssertEqual(
      String(decoding: RPCEncoder.batch([a, b]), as: UTF8.self),
      #"[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: empty batch"}}]"#
    )
    XCTAssertEqual(text { RPCEncoder.appendBatch([a], to: &$0) }, #"[{"jsonrpc":"2.0","id":1,"result":1}]"#)
  }

  func testOutputParsesBack() throws {
    var out: [UInt8] = []
    RPCEncoder.appendResult(id: .string("é\n"), result: .string("\u{1}"), to: &out)
    XCTAssertFalse(out.contains(0x0A))
    XCTAssertEqual(
      try JSONParser.parse(out),
      .object(["jsonrpc": .string("2.0"), "id": .string("é\n"), "result": .string("\u{1}")]))
  }
}
