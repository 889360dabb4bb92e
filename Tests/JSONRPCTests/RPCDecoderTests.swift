import JSONRPC
import XCTest

/// Every request-validation rule of `RPCDecoder`.
final class RPCDecoderTests: XCTestCase {
  func decode(_ text: String) -> Incoming { RPCDecoder.decode(Array(text.utf8)) }

  /// The single entry's error, asserting it is `-32600` with the given id.
  func invalid(_ text: String, id: RequestID = .null, file: StaticString = #filePath, line: UInt = #line) -> String? {
    guard case .single(.invalid(let gotID, let error)) = decode(text) else {
      XCTFail("not a single invalid entry: \(decode(text))", file: file, line: line)
      return nil
    }
    XCTAssertEqual(gotID, id, file: file, line: line)
    XCTAssertEqual(error.code, .invalidRequest, file: file, line: line)
    return error.message
  }

  func request(_ text: String) -> Request? {
    guard case .single(.request(let request)) = decode(text) else { return nil }
    return request
  }

  func testValidRequests() {
    XCTAssertEqual(
      request(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), Request(id: .number("1"), method: "ping", params: nil))
    XCTAssertEqual(
      request(#"{"method":"m","params":{"a":1},"id":"x","jsonrpc":"2.0"}"#),
      Request(id: .string("x"), method: "m", params: .object(["a": .int(1)])))
    XCTAssertEqual(
      request(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#), Request(id: .null, method: "m", params: nil))
    XCTAssertEqual(request(#"{"jsonrpc":"2.0","id":1.50,"method":"m"}"#)?.id, .number("1.50"))
    // Arrays pass through; the server answers -32602 for them.
    XCTAssertEqual(request(#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#)?.params, .array([.int(1)]))
  }

  /// `null` and `[]` are what several client libraries send for a call without params.
  func testNullAndEmptyArrayParamsAreNoParams() {
    for text in [
      #"{"jsonrpc":"2.0","id":1,"method":"m","params":null}"#, #"{"jsonrpc":"2.0","id":1,"method":"m","params":[]}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"m","params":[ ]}"#,
    ] {
      XCTAssertEqual(request(text), Request(id: .number("1"), method: "m", params: nil), text)
    }
    XCTAssertEqual(
      request(#"{"jsonrpc":"2.0","method":"m","params":null}"#), Request(id: nil, method: "m", params: nil))
    XCTAssertEqual(request(#"{"jsonrpc":"2.0","id":1,"method":"m","params":[null]}"#)?.params, .array([.null]))
  }

  func testNotification() {
    let note = request(#"{"jsonrpc":"2.0","method":"tick","params":{}}"#)
    XCTAssertEqual(note, Request(id: nil, method: "tick", params: .object([])))
    XCTAssertEqual(note?.isNotification, true)
  }

  func testParseError() {
    guard case .single(.invalid(let id, let error)) = decode(#"{"jsonrpc":"2.0","#) else { return XCTFail() }
    XCTAssertEqual(id, .null)
    XCTAssertEqual(error, .parseError("unexpected end of input at byte 17"))
    guard case .single(.invalid(_, let deep)) = RPCDecoder.decode(Array("[[[1]]]".utf8), maxDepth: 2) else {
      return XCTFail()
    }
    XCTAssertEqual(deep.code, .parseError)
  }

  func testTopLevelScalars() {
    XCTAssertEqual(invalid("1"), "Invalid Request: expected an object or an array, got a number")
    XCTAssertEqual(invalid(#""x""#), "Invalid Request: expected an object or an array, got a string")
    XCTAssertEqual(invalid("null"), "Invalid Request: expected an object or an array, got null")
    XCTAssertEqual(invalid("true"), "Invalid Request: expected an object or an array, got a boolean")
  }

  func testEmptyBatchIsOneError() {
    XCTAssertEqual(decode(" [ ] "), .single(.invalid(id: .null, error: .invalidRequest("empty batch"))))
  }

  func testBatchEntriesAreValidatedOnTheirOwn() {
    let incoming = decode(
      #"[1,{"jsonrpc":"2.0","id":2,"method":"a"},{"jsonrpc":"1.0","id":3,"method":"b"},[],{"jsonrpc":"2.0","method":"n"}]"#
    )
    XCTAssertEqual(
      incoming,
      .batch([
        .invalid(id: .null, error: .invalidRequest("expected a request object, got a number")),
        .request(Request(id: .number("2"), method: "a", params: nil)),
        .invalid(id: .number("3"), error: .invalidRequest("'jsonrpc' must be \"2.0\"")),
        .invalid(id: .null, error: .invalidRequest("expected a request object, got an array")),
        .request(Request(id: nil, method: "n", params: nil)),
      ]))
    XCTAssertEqual(
      decode("[[]]"), .batch([.invalid(id: .null, error: .invalidRequest("expected a request object, got an array"))]))
  }

  func testJSONRPCVersion() {
    XCTAssertEqual(invalid(#"{"id":1,"method":"m"}"#, id: .number("1")), "Invalid Request: missing 'jsonrpc'")
    XCTAssertEqual(
      invalid(#"{"jsonrpc":2.0,"id":1,"method":"m"}"#, id: .number("1")), #"Invalid Request: 'jsonrpc' must be "2.0""#)
    XCTAssertEqual(
      invalid(#"{"jsonrpc":"2.00","id":"a","method":"m"}"#, id: .string("a")),
      #"Invalid Request: 'jsonrpc' must be "2.0""#)
  }

  func testMethod() {
    XCTAssertEqual(invalid(#"{"jsonrpc":"2.0","id":1}"#, id: .number("1")), "Invalid Request: missing 'method'")
    XCTAssertEqual(
      invalid(#"{"jsonrpc":"2.0","id":1,"method":7}"#, id: .number("1")), "Invalid Request: 'method' must be a string")
    XCTAssertEqual(invalid(#"{"jsonrpc":"2.0","method":null}"#), "Invalid Request: 'method' must be a string")
  }

  func testIDType() {
    for bad in ["true", "[1]", #"{"a":1}"#] {
      XCTAssertEqual(
        invalid(#"{"jsonrpc":"2.0","id":\#(bad),"method":"m"}"#),
        "Invalid Request: 'id' must be a string, a number or null")
    }
  }

  func testParamsType() {
    for bad in ["1", #""x""#, "false"] {
      let message = invalid(#"{"jsonrpc":"2.0","id":9,"method":"m","params":\#(bad)}"#, id: .number("9"))
      XCTAssertEqual(message?.hasPrefix("Invalid Request: 'params' must be an object or an array"), true, bad)
    }
  }

  func testUnknownMember() {
    XCTAssertEqual(
      invalid(#"{"jsonrpc":"2.0","id":1,"method":"m","extra":1}"#, id: .number("1")),
      "Invalid Request: unknown member 'extra'")
    XCTAssertEqual(invalid(#"{"jsonrpc":"2.0","method":"m","Method":"x"}"#), "Invalid Request: unknown member 'Method'")
  }

  func testDuplicateMember() {
    XCTAssertEqual(
      invalid(#"{"jsonrpc":"2.0","id":1,"method":"m","method":"m"}"#, id: .number("1")),
      "Invalid Request: duplicate member 'method'")
    XCTAssertEqual(
      invalid(#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":"k","method":"m"}"#, id: .string("k")),
      "Invalid Request: duplicate member 'jsonrpc'")
    // A duplicated id is ambiguous, so the error goes out with id null.
    XCTAssertEqual(invalid(#"{"jsonrpc":"2.0","id":1,"id":1,"method":"m"}"#), "Invalid Request: duplicate member 'id'")
    XCTAssertEqual(
      invalid(#"{"jsonrpc":"2.0","method":"m","params":{},"params":{}}"#), "Invalid Request: duplicate member 'params'")
  }

  func testResponseShapedObjects() {
    let expected = "Invalid Request: a response object (with 'result' or 'error') is not a request"
    XCTAssertEqual(invalid(#"{"jsonrpc":"2.0","id":4,"result":1}"#, id: .number("4")), expected)
    XCTAssertEqual(invalid(#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}"#), expected)
  }

  func testEmptyObject() {
    XCTAssertEqual(invalid("{}"), "Invalid Request: missing 'jsonrpc'")
  }

  func testDecodeValueDirectly() {
    XCTAssertEqual(
      RPCDecoder.decode(value: .object(["jsonrpc": .string("2.0"), "method": .string("m")])),
      .single(.request(Request(id: nil, method: "m", params: nil))))
    XCTAssertEqual(
      RPCDecoder.entry(.null), .invalid(id: .null, error: .invalidRequest("expected a request object, got null")))
  }
}
