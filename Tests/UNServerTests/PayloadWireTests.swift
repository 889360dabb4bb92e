import Foundation
import JSONRPC
import UNModel
import UNProtocol
import UNStore
import XCTest

@testable import UNServer

private let t0 = Instant(rfc3339: "2026-01-01T08:00:00Z")!

/// The wire side of issue 15's payload work: the sound and attachment shapes in every
/// codec, `pushRemote`'s warnings, the localized-strings methods and their stored row,
/// and attachment files copied into the data store.
final class PayloadWireTests: XCTestCase {
  private var center: Center!
  private var dispatcher: Dispatcher!
  private var configuration = ServerConfiguration()
  private let client = ClientState(id: 1, peer: nil)

  override func setUp() {
    center = Center(clock: ManualClock(t0))
    dispatcher = Dispatcher(center: center, configuration: configuration, log: Log(level: .error), metrics: Metrics())
  }

  private func use(state directory: String) {
    configuration.stateDirectory = directory
    setUp()
  }

  private func call(_ method: String, _ params: String) -> Result<JSONValue, RPCError> {
    let answer = dispatcher.handleCopying(
      .request(Request(id: .number("1"), method: method, params: try! JSONParser.parse(params))), from: client)
    switch answer {
    case .result(_, let value)?: return .success(value)
    case .encoded(_, let bytes)?: return .success(try! JSONParser.parse(bytes))
    case .error(_, let e)?: return .failure(e)
    default: fatalError("no answer: \(String(describing: answer))")
    }
  }

  private func ok(_ method: String, _ params: String, file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
    switch call(method, params) {
    case .success(let v): return v
    case .failure(let e):
      XCTFail("\(method): \(e.message)", file: file, line: line)
      return .null
    }
  }

  private func failure(_ method: String, _ params: String) -> RPCError? {
    if case .failure(let e) = call(method, params) { return e }
    XCTFail("\(method) succeeded")
    return nil
  }

  // MARK: sound

  func testSoundFormsDecodeAndEncodeInEveryShape() throws {
    let forms: [(String, Sound)] = [
      (#""default""#, .default), (#""chime.caf""#, .named("chime.caf")),
      (#"{"critical":true}"#, Sound(critical: true)),
      (#"{"name":"alarm.caf","critical":true,"volume":0.5}"#, Sound(name: "alarm.caf", critical: true, volume: 0.5)),
      (#"{"name":"soft.caf","critical":false,"volume":0.2}"#, Sound(name: "soft.caf", volume: 0.2)),
    ]
    for (text, sound) in forms {
      let c = try ContentShape.decode(try JSONParser.parse(#"{"title":"t","sound":"# + text + "}"))
      XCTAssertEqual(c.sound, sound, text)
      XCTAssertEqual(
        ModelEncoding.tree { ContentShape.encode(c, &$0) }["sound"], try JSONParser.parse(text), "tree: \(text)")
      var bytes: [UInt8] = []
      ContentShape.encode(c, &bytes)
      XCTAssertEqual(try JSONParser.parse(bytes), ModelEncoding.tree { ContentShape.encode(c, &$0) }, "bytes: \(text)")
      var row: [UInt8] = []
      StateCodec.changedContent(c, &row)
      XCTAssertEqual(try ContentShape.decode(try JSONParser.parse(row)), c, "stored row: \(text)")
    }
    // The shorthand object for the default sound is written back as the string.
    let plain = try ContentShape.decode(try JSONParser.parse(#"{"sound":{"critical":false}}"#))
    XCTAssertEqual(ModelEncoding.tree { ContentShape.encode(plain, &$0) }["sound"], .string("default"))
  }

  func testSoundShapeErrorsNameTheField() {
    XCTAssertEqual(
      failure("scheduleLocal", #"{"app":"a","identifier":"x","content":{"sound":{"critical":true,"volume":3}}}"#)?
        .message,
      "Invalid params: content.sound.volume: must be a number in 0...1, got 3.0")
    XCTAssertEqual(
      failure("scheduleLocal", #"{"app":"a","identifier":"x","content":{"sound":{"loud":true}}}"#)?.message,
      "Invalid params: content.sound.loud: unknown field")
    XCTAssertEqual(
      failure("scheduleLocal", #"{"app":"a","identifier":"x","content":{"sound":5}}"#)?.message,
      "Invalid params: content.sound: expected a string or an object, got a number")
  }

  func testCriticalSoundSurvivesScheduleAndListPending() {
    _ = ok(
      "scheduleLocal",
      #"{"app":"a","identifier":"x","content":{"title":"t","sound":{"name":"a.caf","critical":true,"volume":0.7}},"trigger":{"type":"timeInterval","timeInterval":60}}"#
    )
    let listed = ok("listPending", #"{"app":"a"}"#)
    XCTAssertEqual(
      listed["requests"]?[0]?["content"]?["sound"],
      try JSONParser.parse(#"{"name":"a.caf","critical":true,"volume":0.7}"#))
  }

  // MARK: pushRemote

  func testPushRemoteResultCarriesWarnings() {
    let clean = ok("pushRemote", #"{"app":"a","payload":{"aps":{"alert":"hi"}}}"#)
    XCTAssertEqual(clean["warnings"], .array([]))
    let odd = ok("pushRemote", #"{"app":"a","payload":{"aps":{"alert":"hi","relevance-score":100}}}"#)
    XCTAssertEqual(odd["delivered"], .bool(true))
    XCTAssertEqual(
      odd["warnings"], .array([.string("aps.relevance-score: expected a number between 0 and 1, got 100; ignored")]))
    XCTAssertEqual(failure("pushRemote", #"{"app":"a","payload":{"alert":"x"}}"#)?.code.rawValue, -32009)
  }

  func testLocalizedPushThroughTheMethods() {
    XCTAssertEqual(
      ok("registerLocalizedStrings", #"{"app":"a","strings":{"NEW_MSG":"%1$@ wrote: %2$@","TITLE":"Chat"}}"#)["count"],
      .int(2))
    XCTAssertEqual(
      ok("getLocalizedStrings", #"{"app":"a"}"#),
      try JSONParser.parse(#"{"strings":{"NEW_MSG":"%1$@ wrote: %2$@","TITLE":"Chat"}}"#))
    _ = ok(
      "pushRemote",
      #"{"app":"a","identifier":"m","payload":{"aps":{"alert":{"title-loc-key":"TITLE","loc-key":"NEW_MSG","loc-args":["Anna","Cześć"]}}}}"#
    )
    let n = ok("listDelivered", #"{"app":"a"}"#)["notifications"]?[0]?["request"]?["content"]
    XCTAssertEqual(n?["title"], .string("Chat"))
    XCTAssertEqual(n?["body"], .string("Anna wrote: Cześć"))
    XCTAssertEqual(
      failure("registerLocalizedStrings", #"{"app":"a","strings":{"K":1}}"#)?.message,
      "Invalid params: strings.K: expected a string, got a number")
    XCTAssertEqual(
      failure("registerLocalizedStrings", #"{"app":"a","strings":["K"]}"#)?.message,
      "Invalid params: strings: expected an object, got an array")
  }

  func testStringsAreStoredAndWipedByReset() throws {
    let store = MemoryStore()
    center.changes.isEnabled = true
    let persistence = Persistence(store: store)
    _ = ok("registerLocalizedStrings", #"{"app":"a","strings":{"K":"%@!"}}"#)
    try persistence.commit(center)
    let reloaded = Center(clock: ManualClock(t0))
    try Persistence(store: store).load(into: reloaded)
    XCTAssertEqual(reloaded.localizedStrings(app: "a"), ["K": "%@!"])
    _ = ok("reset", #"{"app":"a"}"#)
    try persistence.commit(center)
    let wiped = Center(clock: ManualClock(t0))
    try Persistence(store: store).load(into: wiped)
    XCTAssertEqual(wiped.localizedStrings(app: "a"), [:])
  }

  // MARK: attachments

  private func temporaryFile(_ name: String, _ contents: String) -> String {
    let directory = NSTemporaryDirectory() + "attach-src-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/" + name
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(contents.utf8)))
    return path
  }

  func testAttachmentIsCopiedIntoTheStateDirectoryAndRemovedByReset() throws {
    let state = NSTemporaryDirectory() + "attach-state-\(UUID().uuidString)"
    addTeardownBlock { try? FileManager.default.removeItem(atPath: state) }
    // The daemon's store makes the state directory; the attachments are kept inside it.
    XCTAssertEqual(mkdir(state, 0o700), 0)
    use(state: state)
    let source = temporaryFile("cat.png", "PNG bytes")
    let url = URL(fileURLWithPath: source).absoluteString
    _ = ok(
      "scheduleLocal",
      #"{"app":"com.example.pets","identifier":"x","content":{"title":"t","attachments":[{"identifier":"img","url":""#
        + url + #"","type":"public.png"}]},"trigger":{"type":"timeInterval","timeInterval":60}}"#)
    try FileManager.default.removeItem(atPath: source)  // the app may delete its file at once
    let listed = ok("listPending", #"{"app":"com.example.pets"}"#)
    let attachment = try XCTUnwrap(listed["requests"]?[0]?["content"]?["attachments"]?[0])
    XCTAssertEqual(attachment["identifier"], .string("img"))
    XCTAssertEqual(attachment["type"], .string("public.png"))
    let copy = try XCTUnwrap(URL(string: attachment["url"]?.stringValue ?? "")?.path)
    XCTAssertTrue(copy.hasPrefix(state + "/attachments/com.example.pets/"), copy)
    XCTAssertTrue(copy.hasSuffix(".png"))
    XCTAssertEqual(try String(contentsOfFile: copy, encoding: .utf8), "PNG bytes")
    _ = ok("advanceClock", #"{"seconds":60}"#)
    let delivered = ok("listDelivered", #"{"app":"com.example.pets"}"#)
    XCTAssertEqual(
      delivered["notifications"]?[0]?["request"]?["content"]?["attachments"]?[0]?["url"], attachment["url"])
    _ = ok("reset", #"{"app":"com.example.pets"}"#)
    XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
  }

  func testAttachmentURLErrorsNameTheFieldAndWhy() {
    let directory = NSTemporaryDirectory()
    func attempt(_ url: String) -> String? {
      failure(
        "scheduleLocal",
        #"{"app":"a","identifier":"x","content":{"attachments":[{"identifier":"ok","url":""#
          + URL(fileURLWithPath: temporaryFile("ok.txt", "x")).absoluteString
          + #""},{"identifier":"bad","url":""# + url + #""}]}}"#)?.message
    }
    XCTAssertEqual(
      attempt("https://example.com/cat.png"),
      "Invalid params: content.attachments[1].url: 'https://example.com/cat.png' is not a file: URL")
    // Whether a path the caller cannot reach exists is not told (here the process's uid).
    XCTAssertEqual(
      attempt("file:///nonexistent/cat.png"),
      "Invalid params: content.attachments[1].url: /nonexistent/cat.png is not a file uid \(geteuid()) can read "
        + "(it does not exist, or uid \(geteuid()) may not read it)")
    XCTAssertEqual(
      attempt(URL(fileURLWithPath: directory).absoluteString),
      "Invalid params: content.attachments[1].url: \(URL(fileURLWithPath: directory).path)/ is not a regular file")
    XCTAssertEqual(ok("listPending", #"{"app":"a"}"#)["requests"], .array([]), "nothing kept")
    XCTAssertEqual(
      failure("scheduleLocal", #"{"app":"a","identifier":"x","content":{"attachments":[{"url":"file:///x"}]}}"#)?
        .message,
      "Invalid params: content.attachments[0].identifier: required")
  }

  func testContentWithoutAttachmentsIsWrittenAsBefore() throws {
    let c = try ContentShape.decode(try JSONParser.parse(#"{"title":"t","attachments":[]}"#))
    XCTAssertNil(ModelEncoding.tree { ContentShape.encode(c, &$0) }["attachments"])
    var row: [UInt8] = []
    StateCodec.changedContent(c, &row)
    XCTAssertEqual(String(decoding: row, as: UTF8.self), #"{"title":"t"}"#)
  }
}
