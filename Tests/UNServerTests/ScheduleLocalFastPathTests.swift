import JSONRPC
import UNModel
import XCTest

@testable import UNServer

/// The scheduleLocal fast path must decode exactly what the general path decodes, and
/// leave everything else to it.
final class ScheduleLocalFastPathTests: XCTestCase {
  private let typical =
    #"{"jsonrpc":"2.0","id":7,"method":"scheduleLocal","params":{"app":"com.bench","identifier":"r-1-2-3","#
    + #""content":{"title":"Standup","body":"Daily standup in 5 minutes, room 4","categoryIdentifier":"reminder","#
    + #""threadIdentifier":"team","userInfo":{"seq":3}},"trigger":{"type":"timeInterval","timeInterval":86400,"#
    + #""repeats":false}}}"#

  private func fast(_ text: String, maxDepth: Int = 512) -> ScheduleLocalFastPath? {
    Array(text.utf8).withUnsafeBytes { ScheduleLocalFastPath.decode($0, maxDepth: maxDepth) }
  }

  private func reference(_ text: String, maxDepth: Int = 512) -> ScheduleLocalFastPath? {
    Array(text.utf8).withUnsafeBytes { ScheduleLocalFastPath.reference($0, maxDepth: maxDepth) }
  }

  /// Decoded by the fast path, and identical to the general path's reading.
  private func assertFast(_ text: String, maxDepth: Int = 512, file: StaticString = #filePath, line: UInt = #line) {
    guard let f = fast(text, maxDepth: maxDepth) else {
      return XCTFail("fast path declined: \(text)", file: file, line: line)
    }
    XCTAssertEqual(f, reference(text, maxDepth: maxDepth), text, file: file, line: line)
  }

  /// Left to the general path.
  private func assertDeclined(_ text: String, maxDepth: Int = 512, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertNil(fast(text, maxDepth: maxDepth), text, file: file, line: line)
  }

  func testTypicalRequestDecodesToTheSameValues() throws {
    assertFast(typical)
    let f = try XCTUnwrap(fast(typical))
    XCTAssertEqual(f.id, .number("7"))
    XCTAssertEqual(f.app, "com.bench")
    XCTAssertEqual(f.request.identifier, "r-1-2-3")
    XCTAssertEqual(f.request.content.body, "Daily standup in 5 minutes, room 4")
    XCTAssertEqual(String(decoding: f.request.content.userInfo.bytes, as: UTF8.self), #"{"seq":3}"#)
    XCTAssertEqual(f.request.trigger, .timeInterval(try TimeIntervalTrigger(seconds: 86400, repeats: false)))
  }

  func testShapesTheFastPathTakes() {
    let envelope = { (params: String) in
      #"{"jsonrpc":"2.0","id":"a\"b","method":"scheduleLocal","params":"# + params + "}"
    }
    // Whitespace everywhere, escapes in values, ids of each kind, notifications.
    assertFast(
      " { \"jsonrpc\" : \"2.0\" , \"method\" : \"scheduleLocal\" , \"params\" : { \"identifier\" : \"x\" , \"content\" : { } } , \"id\" : null } \n"
    )
    assertFast(#"{"method":"scheduleLocal","jsonrpc":"2.0","params":{"identifier":"x","content":{}}}"#)
    // The envelope's members after params.
    assertFast(#"{"method":"scheduleLocal","params":{"identifier":"x","content":{}},"jsonrpc":"2.0","id":"z"}"#)
    assertFast(#"{"jsonrpc":"2.0","id":-1.5e3,"method":"scheduleLocal","params":{"identifier":"x","content":{}}}"#)
    assertFast(
      envelope(#"{"identifier":"\u00e9t\u00e9 \ud83d\ude00","content":{"title":"a\nb","body":"é"},"trigger":null}"#))
    // Every content field, nulls as absent, numbers in other spellings.
    assertFast(
      envelope(
        #"{"app":null,"identifier":"x","content":{"title":null,"subtitle":"s","body":"b","badge":3.0,"sound":"default","#
          + #""userInfo":{"a":[1,{"b":null}],"c":"\u0041","d":true},"categoryIdentifier":"c","threadIdentifier":"t","#
          + #""summaryArgument":"x","summaryArgumentCount":2e0,"targetContentIdentifier":"t","#
          + #""interruptionLevel":"timeSensitive","relevanceScore":0.25,"launchImageName":"l","filterCriteria":"f"},"#
          + #""trigger":{"repeats":true,"timeInterval":60.0,"type":"timeInterval"}}"#))
    assertFast(envelope(#"{"identifier":"x","content":{"sound":"ping.caf","userInfo":{ "seq" : 1 }}}"#))
    assertFast(envelope(#"{"identifier":"x","content":{"userInfo":{"k":"\/","deep":[[[[1]]]]}}}"#))
    assertFast(envelope(#"{"identifier":"x","content":{"badge":-1,"relevanceScore":7}}"#))  // the model refuses these
    assertFast(
      envelope(
        #"{"identifier":"x","content":{},"trigger":{"type":"timeInterval","timeInterval":86400.000000000000001}}"#))
  }

  func testEverythingElseIsLeftToTheGeneralPath() {
    let envelope = { (params: String) in #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":"# + params + "}" }
    for text in [
      "", "null", "[]", "\u{FEFF}" + typical, "\u{EF}", typical + "x", typical + "{}", String(typical.dropLast()),
      #"[{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"identifier":"x","content":{}}}]"#,
      #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
      #"{"jsonrpc":"2.0","id":1,"params":{"identifier":"x","content":{}},"method":"scheduleLocal"}"#,
      #"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"identifier":"x","content":{}}}"#,
      #"{"jsonrpc":"2.0","id":1,"id":2,"method":"scheduleLocal","params":{"identifier":"x","content":{}}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"identifier":"x","content":{}},"extra":1}"#,
      #"{"jsonrpc":"1.0","id":1,"method":"scheduleLocal","params":{"identifier":"x","content":{}}}"#,
      #"{"jsonrpc":"2.0","id":[1],"method":"scheduleLocal","params":{"identifier":"x","content":{}}}"#,
      #"{"jsonrpc":"2.0","id":01,"method":"scheduleLocal","params":{"identifier":"x","content":{}}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"schedule\u004cocal","params":{"identifier":"x","content":{}}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal"}"#,
      envelope("[]"), envelope(#"{"identifier":"","content":{}}"#), envelope(#"{"identifier":"x"}"#),
      envelope(#"{"content":{}}"#), envelope(#"{"identifier":null,"content":{}}"#),
      envelope(#"{"identifier":"x","content":null}"#), envelope(#"{"identifier":"x","identifier":"y","content":{}}"#),
      envelope(#"{"identifier":"x","content":{},"extra":1}"#), envelope(#"{"identifier":"x","content":{"titel":"a"}}"#),
      envelope(#"{"identifier":"x","content":{"title":"a","title":"b"}}"#),
      // Repeated fields, read directly or through the table, also after a null.
      envelope(#"{"identifier":"x","content":{"body":null,"body":"b"}}"#),
      envelope(#"{"identifier":"x","content":{"userInfo":{},"userInfo":{}}}"#),
      envelope(
        #"{"identifier":"x","content":{"categoryIdentifier":"a","threadIdentifier":"b","categoryIdentifier":"c"}}"#),
      envelope(#"{"identifier":"x","content":{"threadIdentifier":"a","threadIdentifier":null}}"#),
      envelope(#"{"identifier":"x","content":{"subtitle":"a","subtitle":"b"}}"#),
      envelope(#"{"app":"a","identifier":"x","content":{},"app":"b"}"#),
      envelope(#"{"identifier":"x","content":{},"trigger":null,"trigger":null}"#),
      // Envelope members repeated after params.
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"identifier":"x","content":{}},"id":2}"#,
      #"{"jsonrpc":"2.0","method":"scheduleLocal","params":{"identifier":"x","content":{}},"method":"ping"}"#,
      #"{"jsonrpc":"2.0","method":"scheduleLocal","params":{"identifier":"x","content":{}},"params":{}}"#,
      #"{"method":"scheduleLocal","params":{"identifier":"x","content":{}},"id":1}"#,
      envelope(#"{"identifier":"x","content":{"title":1}}"#), envelope(#"{"identifier":"x","content":{"badge":1.5}}"#),
      envelope(#"{"identifier":"x","content":{"badge":"1"}}"#),
      envelope(#"{"identifier":"x","content":{"userInfo":[]}}"#),
      envelope(#"{"identifier":"x","content":{"userInfo":{"a":1,}}}"#),
      envelope(#"{"identifier":"x","content":{"userInfo":{"a":"\ud800"}}}"#),
      envelope(#"{"identifier":"x","content":{"interruptionLevel":"loud"}}"#),
      // Attachments are copied off the loop, as the caller: only the general path does that.
      envelope(#"{"identifier":"x","content":{"attachments":[{"identifier":"a","url":"file:///tmp/a.png"}]}}"#),
      envelope(#"{"identifier":"x","content":{"attachments":[]}}"#),
      envelope(#"{"identifier":"x","content":{"relevanceScore":1e999}}"#),
      envelope(#"{"identifier":"x","content":{"title":"\u0000\u001"}}"#),
      envelope("{\"identifier\":\"x\",\"content\":{\"title\":\"a\u{01}b\"}}"),
      envelope(#"{"identifier":"x","content":{},"trigger":{"type":"calendar","dateMatching":{"hour":8}}}"#),
      envelope(#"{"identifier":"x","content":{},"trigger":{"type":"timeInterval","timeInterval":0}}"#),
      envelope(#"{"identifier":"x","content":{},"trigger":{"type":"timeInterval","timeInterval":30,"repeats":true}}"#),
      envelope(#"{"identifier":"x","content":{},"trigger":{"type":"timeInterval"}}"#),
      envelope(#"{"identifier":"x","content":{},"trigger":{"timeInterval":5}}"#),
      envelope(#"{"identifier":"x","content":{},"trigger":{"type":"timeInterval","timeInterval":5,"repeats":1}}"#),
      envelope(#"{"identifier":"x","content":{},"trigger":5}"#),
      envelope(#"{"\u0069dentifier":"x","content":{}}"#),
      // A literal that starts like null but is not one must not be skipped over.
      envelope(#"{"identifier":"x","content":{"title":n"a"}}"#),
      envelope(#"{"app":nul"a","identifier":"x","content":{}}"#),
      envelope(#"{"identifier":"x","content":{"title":nulll}}"#),
      envelope(#"{"identifier":"x","content":{},"trigger":n{"type":"timeInterval","timeInterval":5}}"#),
    ] {
      assertDeclined(text)
      if let f = fast(text) { XCTAssertEqual(f, reference(text)) }
    }
  }

  /// U+0000 is refused in identifiers (the general path answers -32602 naming the
  /// field): the fast path leaves such a request to it.  In free text it is kept, and
  /// both paths read the same bytes.
  func testANulInAnIdentifierIsLeftToTheGeneralPathAndKeptInText() throws {
    let envelope = { (params: String) in #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":"# + params + "}" }
    for nul in [#"x\u0000y"#, #"\u0000"#, #"\u00e9\u0000"#, #"caf\u00e9\u0000"#] {
      for text in [
        envelope(#"{"app":"\#(nul)","identifier":"x","content":{}}"#),
        envelope(#"{"identifier":"\#(nul)","content":{}}"#),
        envelope(#"{"identifier":"x","content":{"categoryIdentifier":"\#(nul)"}}"#),
        envelope(#"{"identifier":"x","content":{"threadIdentifier":"\#(nul)"}}"#),
        envelope(#"{"identifier":"x","content":{"targetContentIdentifier":"\#(nul)"}}"#),
      ] {
        assertDeclined(text)
        XCTAssertNil(reference(text), text)
      }
    }
    let text = envelope(
      #"{"identifier":"x","content":{"title":"t\u0000","body":"\u0000b","subtitle":"s\u0000","userInfo":{"k\u0000":"\u0000"}}}"#
    )
    assertFast(text)
    let f = try XCTUnwrap(fast(text))
    XCTAssertEqual(Array(f.request.content.title.utf8), [UInt8(ascii: "t"), 0])
    XCTAssertEqual(Array(f.request.content.body.utf8), [0, UInt8(ascii: "b")])
  }

  /// Both paths keep an identifier's bytes as sent: an NFD spelling is not made NFC.
  func testIdentifiersKeepTheirBytes() throws {
    let text =
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"app":"cafe\u0301","identifier":"e\u0301","#
      + #""content":{"categoryIdentifier":"cafe\u0301","threadIdentifier":"te\u0301"}}}"#
    assertFast(text)
    for decoded in [try XCTUnwrap(fast(text)), try XCTUnwrap(reference(text))] {
      XCTAssertEqual(decoded.app.map { Array($0.utf8) }, Array("cafe\u{301}".utf8))
      XCTAssertEqual(Array(decoded.request.identifier.utf8), Array("e\u{301}".utf8))
      XCTAssertEqual(Array(decoded.request.content.categoryIdentifier.utf8), Array("cafe\u{301}".utf8))
      XCTAssertEqual(Array(decoded.request.content.threadIdentifier.utf8), Array("te\u{301}".utf8))
    }
    // The comparison the fuzz harness makes tells the spellings apart.
    let nfc = text.replacingOccurrences(of: #"e\u0301"#, with: #"\u00e9"#)
    XCTAssertNotEqual(try XCTUnwrap(fast(text)), try XCTUnwrap(fast(nfc)))
  }

  func testACallReadAgainKeepsNothingOfTheRequestBefore() {
    let full =
      #"{"jsonrpc":"2.0","id":"a","method":"scheduleLocal","params":{"app":"com.x","identifier":"one","#
      + #""content":{"title":"t\u0041","body":"b","badge":2,"sound":"default","userInfo":{ "k" : 1 },"#
      + #""threadIdentifier":"th"},"trigger":{"type":"timeInterval","timeInterval":60,"repeats":true}}}"#
    let bare = #"{"jsonrpc":"2.0","method":"scheduleLocal","params":{"identifier":"two","content":{}}}"#
    let declined = #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"identifier":"","content":{}}}"#
    var call = ScheduleLocalCall.empty
    // Each message read into the same call, as the server reads the messages of a read.
    for text in [full, bare, full, declined, bare, full] {
      let read: ScheduleLocalFastPath? = Array(text.utf8).withUnsafeBytes { bytes in
        guard case .scheduleLocal = RequestFastPath.read(bytes, maxDepth: 512, scheduleLocal: &call) else { return nil }
        return call.decoded
      }
      XCTAssertEqual(read == nil, text == declined, text)
      XCTAssertEqual(read, reference(text), text)
      XCTAssertEqual(read, fast(text), text)
    }
  }

  func testNestingLimitIsThatOfTheParser() {
    let text =
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"identifier":"x","content":{"userInfo":{"a":[{}]}}}}"#
    // Six containers deep: the parser accepts it with a limit of 6, not 5.
    assertFast(text, maxDepth: 6)
    XCTAssertNil(reference(text, maxDepth: 5))
    assertDeclined(text, maxDepth: 5)
    assertDeclined(text, maxDepth: 3)
  }
}
