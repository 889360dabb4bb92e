import Foundation
import JSONRPC
import TestSupport
import XCTest

/// Identifiers are compared literally, as their exact UTF-8 (as Apple's `NSString`
/// compares them), and U+0000 is refused in every identifier, app id and time zone, so
/// that no two apps, requests or categories can meet in one stored row.
final class IdentifierExactnessTests: EndToEndTestCase {
  /// `com.café` precomposed (NFC) and decomposed (NFD), as JSON escapes.
  private let nfc = #"com.caf\u00e9"#
  private let nfd = #"com.cafe\u0301"#

  /// A `--state` daemon that clients of other uids can reach.
  private func sharedStateDaemon(_ dir: String) throws -> DaemonProcess {
    let d = try stateDaemon(dir, ["--socket-mode", "0666"])
    chmod(dir, 0o755)
    return d
  }

  private func request(_ id: Int, _ method: String, _ params: String) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
  }

  private func schedule(_ id: Int, app: String, _ identifier: String) -> String {
    request(
      id, "scheduleLocal",
      #"{"app":"\#(app)","identifier":"\#(identifier)","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":600}}"#
    )
  }

  private func pendingIdentifiers(_ reply: JSONValue?) -> [String]? {
    reply?["result"]?["requests"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }
  }

  /// uid 65533 tried to say hello as `com.victim\u0000x` and schedule under it; the row
  /// of such an app was written under `com.victim`, so after a crash the attacker owned
  /// the victim's app.  The app id is refused, and the victim keeps its app.
  func testANulInAnAppIdIsRefusedAndCannotTakeOverAnotherUsersApp() throws {
    try requireOtherUsers()
    let dir = try freshDirectory()
    var d = try sharedStateDaemon(dir)
    let victim = try calls(
      as: 65534, d.socketPath,
      [request(1, "hello", #"{"appId":"com.victim"}"#), schedule(2, app: "com.victim", "mine")])
    XCTAssertEqual(victim[1]?["result"]?["scheduled"], .bool(true), "\(String(describing: victim))")
    let attacker = try calls(
      as: 65533, d.socketPath,
      [
        request(1, "hello", #"{"appId":"com.victim\u0000x"}"#), schedule(2, app: #"com.victim\u0000x"#, "pay"),
        request(3, "registerCategories", #"{"app":"com.victim\u0000x","categories":[]}"#),
      ])
    for (reply, field) in zip(attacker, ["appId", "app", "app"]) {
      XCTAssertEqual(reply?["error"]?["code"]?.intValue, -32602, "\(String(describing: reply))")
      XCTAssertEqual(reply?["error"]?["data"]?["field"]?.stringValue, field, "\(String(describing: reply))")
    }
    XCTAssertTrue(d.kill9())

    d = try sharedStateDaemon(dir)
    let after = try calls(as: 65534, d.socketPath, [request(1, "listPending", #"{"app":"com.victim"}"#)])
    XCTAssertEqual(pendingIdentifiers(after[0]), ["mine"], "\(String(describing: after[0]))")
    let stranger = try calls(as: 65533, d.socketPath, [request(1, "listPending", #"{"app":"com.victim"}"#)])
    XCTAssertEqual(stranger[0]?["error"]?["code"]?.intValue, -32001, "\(String(describing: stranger[0]))")
    let stats = try ok(try userConnection(d).call("stats"))
    XCTAssertEqual(stats["apps"]?.intValue, 1, "\(text(stats))")
  }

  /// `com.café` spelled NFC by one user and NFD by another are two apps: each owns its
  /// own, with its own requests, before and after `kill -9`.
  func testNFCAndNFDAppsStayTwoAppsWithTheirOwnersAcrossAKill() throws {
    try requireOtherUsers()
    let dir = try freshDirectory()
    var d = try sharedStateDaemon(dir)
    let first = try calls(
      as: 65534, d.socketPath, [request(1, "hello", #"{"appId":"\#(nfc)"}"#), schedule(2, app: nfc, "nfc-request")])
    XCTAssertEqual(first[1]?["result"]?["scheduled"], .bool(true), "\(String(describing: first))")
    let second = try calls(
      as: 65533, d.socketPath, [request(1, "hello", #"{"appId":"\#(nfd)"}"#), schedule(2, app: nfd, "nfd-request")])
    XCTAssertNotNil(second[0]?["result"], "the NFD app is not the NFC user's: \(String(describing: second[0]))")
    XCTAssertEqual(second[1]?["result"]?["scheduled"], .bool(true), "\(String(describing: second[1]))")
    XCTAssertTrue(d.kill9())

    d = try sharedStateDaemon(dir)
    let list = { (app: String) in self.request(1, "listPending", #"{"app":"\#(app)"}"#) }
    let nfcOwner = try calls(as: 65534, d.socketPath, [list(nfc), list(nfd)])
    XCTAssertEqual(pendingIdentifiers(nfcOwner[0]), ["nfc-request"], "\(String(describing: nfcOwner[0]))")
    XCTAssertEqual(nfcOwner[1]?["error"]?["code"]?.intValue, -32001, "\(String(describing: nfcOwner[1]))")
    let nfdOwner = try calls(as: 65533, d.socketPath, [list(nfd), list(nfc)])
    XCTAssertEqual(pendingIdentifiers(nfdOwner[0]), ["nfd-request"], "\(String(describing: nfdOwner[0]))")
    XCTAssertEqual(nfdOwner[1]?["error"]?["code"]?.intValue, -32001, "\(String(describing: nfdOwner[1]))")
  }

  /// The same without other users: two apps, two categories, two requests in each
  /// spelling, after a crash.
  func testNFCAndNFDIdentifiersStayApartAcrossAKill() throws {
    let dir = try freshDirectory()
    var d = try sharedStateDaemon(dir)
    var user = try userConnection(d)
    for app in [nfc, nfd] {
      try ok(
        user.call(
          "registerCategories",
          json(#"{"app":"\#(app)","categories":[{"identifier":"caf\u00e9"},{"identifier":"cafe\u0301"}]}"#)))
      for id in [#"r\u00e9"#, #"re\u0301"#] {
        try ok(
          user.call(
            "scheduleLocal",
            json(
              #"{"app":"\#(app)","identifier":"\#(id)","content":{"title":"\#(app) \#(id)","categoryIdentifier":"cafe\u0301"},"trigger":null}"#
            )))
      }
    }
    XCTAssertTrue(d.kill9())

    d = try sharedStateDaemon(dir)
    user = try userConnection(d)
    XCTAssertEqual(try ok(user.call("stats"))["apps"]?.intValue, 2)
    for app in [nfc, nfd] {
      let appText = try XCTUnwrap(json(#""\#(app)""#).stringValue)
      let categories = try ok(user.call("getCategories", json(#"{"app":"\#(app)"}"#)))["categories"]?.arrayValue ?? []
      XCTAssertEqual(categories.count, 2, "\(app)")
      let delivered = try ok(user.call("listDelivered", json(#"{"app":"\#(app)"}"#)))["notifications"]?.arrayValue ?? []
      let titles = Set(delivered.compactMap { $0["request"]?["content"]?["title"]?.stringValue.map { Array($0.utf8) } })
      let expected = Set(
        [#"r\u00e9"#, #"re\u0301"#].map { Array((appText + " " + json(#""\#($0)""#).stringValue!).utf8) })
      XCTAssertEqual(titles, expected, "\(app)")
    }
  }

  func testANulInATimeZoneIsRefused() throws {
    let d = try startDaemon()
    let c = try appConnection(d)
    try assertInvalidParams(
      c.call(
        "scheduleLocal",
        json(
          #"{"identifier":"tz","content":{"title":"T"},"trigger":{"type":"calendar","dateMatching":{"hour":9},"timeZone":"UTC\u0000"}}"#
        )), field: "trigger.timeZone", problemContains: "U+0000")
    try ok(
      c.call(
        "scheduleLocal",
        json(
          #"{"identifier":"tz","content":{"title":"T"},"trigger":{"type":"calendar","dateMatching":{"hour":9},"timeZone":"UTC"}}"#
        )))
  }

  /// Every identifier of every method, with a NUL: `-32602` naming it.  `scheduleLocal`
  /// is sent twice, once in the shape its fast path reads (a time-interval trigger) and
  /// once in the one only the general path reads (a calendar trigger).
  func testANulInAnyIdentifierIsRefusedNamingIt() throws {
    let d = try startDaemon()
    let c = try appConnection(d, appId: "com.example.chat")
    let nul = #"x\u0000y"#
    let interval = #"{"type":"timeInterval","timeInterval":60}"#
    let calendar = #"{"type":"calendar","dateMatching":{"hour":9},"timeZone":"UTC"}"#
    var cases: [(method: String, params: String, field: String)] = []
    for trigger in [interval, calendar] {
      cases += [
        ("scheduleLocal", #"{"identifier":"\#(nul)","content":{},"trigger":\#(trigger)}"#, "identifier"),
        ("scheduleLocal", #"{"app":"\#(nul)","identifier":"r","content":{},"trigger":\#(trigger)}"#, "app"),
        (
          "scheduleLocal", #"{"identifier":"r","content":{"categoryIdentifier":"\#(nul)"},"trigger":\#(trigger)}"#,
          "content.categoryIdentifier"
        ),
        (
          "scheduleLocal", #"{"identifier":"r","content":{"threadIdentifier":"\#(nul)"},"trigger":\#(trigger)}"#,
          "content.threadIdentifier"
        ),
        (
          "scheduleLocal",
          #"{"identifier":"r","content":{"title":"t","targetContentIdentifier":"\#(nul)"},"trigger":\#(trigger)}"#,
          "content.targetContentIdentifier"
        ),
        (
          "scheduleLocal",
          #"{"identifier":"r","content":{"attachments":[{"identifier":"\#(nul)","url":"file:///nonexistent"}]},"trigger":\#(trigger)}"#,
          "content.attachments[0].identifier"
        ),
      ]
    }
    cases += [
      ("hello", #"{"appId":"\#(nul)"}"#, "appId"),
      ("hello", #"{"role":"contentExtension","appId":"a","categories":["ok","\#(nul)"]}"#, "categories[1]"),
      ("registerCategories", #"{"categories":[{"identifier":"\#(nul)"}]}"#, "categories[0].identifier"),
      (
        "registerCategories",
        #"{"categories":[{"identifier":"a"},{"identifier":"b","actions":[{"identifier":"\#(nul)","title":"t"}]}]}"#,
        "categories[1].actions[0].identifier"
      ),
      (
        "registerCategories", #"{"categories":[{"identifier":"a","intentIdentifiers":["\#(nul)"]}]}"#,
        "categories[0].intentIdentifiers[0]"
      ),
      ("getCategories", #"{"app":"\#(nul)"}"#, "app"),
      ("listPending", #"{"app":"\#(nul)"}"#, "app"),
      ("listPending", #"{"after":"1:\#(nul)"}"#, "after"),
      ("removePending", #"{"identifiers":["a","\#(nul)"]}"#, "identifiers[1]"),
      ("removeDelivered", #"{"identifiers":["\#(nul)"]}"#, "identifiers[0]"),
      ("respond", #"{"identifier":"\#(nul)","actionIdentifier":"a"}"#, "identifier"),
      ("respond", #"{"identifier":"n","actionIdentifier":"\#(nul)"}"#, "actionIdentifier"),
      ("completeResponse", #"{"responseId":"\#(nul)"}"#, "responseId"),
      ("completePresentation", #"{"presentationId":"\#(nul)","options":[]}"#, "presentationId"),
      ("completeContent", #"{"requestId":"\#(nul)"}"#, "requestId"),
      ("completeExtensionResponse", #"{"responseId":"\#(nul)","option":"doNotDismiss"}"#, "responseId"),
      ("expand", #"{"identifier":"\#(nul)"}"#, "identifier"),
      ("collapse", #"{"identifier":"\#(nul)"}"#, "identifier"),
      ("interact", #"{"identifier":"\#(nul)","control":"c"}"#, "identifier"),
      ("interact", #"{"identifier":"n","control":"\#(nul)"}"#, "control"),
      ("pushRemote", #"{"payload":{"aps":{"alert":"a"}},"identifier":"\#(nul)"}"#, "identifier"),
      ("pushRemote", #"{"payload":{"aps":{"alert":"a","thread-id":"\#(nul)"}}}"#, "payload.aps.thread-id"),
      ("pushRemote", #"{"payload":{"aps":{"alert":"a","category":"\#(nul)"}}}"#, "payload.aps.category"),
      (
        "pushRemote", #"{"payload":{"aps":{"alert":"a","target-content-id":"\#(nul)"}}}"#,
        "payload.aps.target-content-id"
      ),
      ("setBadgeCount", #"{"app":"\#(nul)","count":1}"#, "app"),
      ("watch", #"{"apps":["a","\#(nul)"]}"#, "apps[1]"),
      ("waitFor", #"{"app":"\#(nul)","event":{},"timeout":0}"#, "app"),
      ("waitFor", #"{"event":{"app":"\#(nul)"},"timeout":0}"#, "event.app"),
      ("registerLocalizedStrings", #"{"strings":{"ok":"a","\#(nul)":"b"}}"#, "strings"),
      ("reset", #"{"app":"\#(nul)"}"#, "app"),
      ("releaseApp", #"{"app":"\#(nul)"}"#, "app"),
    ]
    for (method, params, field) in cases {
      let r = try c.call(method, json(params))
      guard case .failure(let e) = r else {
        XCTFail("\(method) \(params): accepted")
        continue
      }
      XCTAssertEqual(e.code.rawValue, -32602, "\(method) \(params): \(e.message)")
      XCTAssertEqual(e.data?["field"]?.stringValue, field, "\(method) \(params): \(e.message)")
      XCTAssertTrue(e.message.contains("U+0000"), "\(method) \(params): \(e.message)")
    }
    // Nothing was claimed or created by the refused calls.
    XCTAssertEqual(try ok(c.call("stats"))["apps"]?.intValue, 1)
  }

  /// Free text is content, not a key: a NUL in it is kept, byte for byte, across `kill -9`.
  func testANulInFreeTextSurvivesARestartByteForByte() throws {
    let dir = try freshDirectory()
    var d = try sharedStateDaemon(dir)
    var user = try userConnection(d)
    let content =
      #"{"title":"t\u0000itle","subtitle":"\u0000","body":"b\u0000","userInfo":{"k\u0000":"v\u0000w"},"summaryArgument":"A\u0000","launchImageName":"l\u0000","filterCriteria":"f\u0000","sound":"s\u0000.caf"}"#
    // One through the fast path (time interval), one through the general path (calendar).
    try ok(
      user.call(
        "scheduleLocal",
        json(
          #"{"app":"a","identifier":"fast","content":\#(content),"trigger":{"type":"timeInterval","timeInterval":60}}"#)
      ))
    try ok(
      user.call(
        "scheduleLocal",
        json(
          #"{"app":"a","identifier":"tree","content":\#(content),"trigger":{"type":"calendar","dateMatching":{"hour":9},"timeZone":"UTC"}}"#
        )))
    try ok(
      user.call(
        "registerCategories",
        json(
          #"{"app":"a","categories":[{"identifier":"c","actions":[{"identifier":"a","title":"T\u0000"}],"hiddenPreviewsBodyPlaceholder":"h\u0000"}]}"#
        )))
    let before = try ok(user.call("listPending", json(#"{"app":"a"}"#)))
    let categories = try ok(user.call("getCategories", json(#"{"app":"a"}"#)))
    XCTAssertEqual(
      before["requests"]?[0]?["content"]?["title"]?.stringValue.map { Array($0.utf8) }, Array("t\u{0}itle".utf8))
    XCTAssertTrue(d.kill9())

    d = try sharedStateDaemon(dir)
    user = try userConnection(d)
    let after = try ok(user.call("listPending", json(#"{"app":"a"}"#)))
    XCTAssertEqual(after.encoded(), before.encoded())
    XCTAssertEqual(try ok(user.call("getCategories", json(#"{"app":"a"}"#))).encoded(), categories.encoded())
    let expected = json(content)
    for r in after["requests"]?.arrayValue ?? [] {
      for name in ["title", "subtitle", "body", "summaryArgument", "launchImageName", "filterCriteria", "sound"] {
        XCTAssertEqual(
          r["content"]?[name]?.stringValue.map { Array($0.utf8) }, expected[name]?.stringValue.map { Array($0.utf8) },
          name)
      }
      XCTAssertEqual(r["content"]?["userInfo"]?.encoded(), expected["userInfo"]?.encoded())
    }
  }
}
