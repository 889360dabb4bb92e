import Foundation
import JSONRPC
import TestSupport
import XCTest

/// An app belongs to the uid that first used it; other uids get -32001, root and
/// the daemon's uid may use every app.  Clients of other uids are run with `setpriv`
/// (proto-docs/README.md, "Apps and their owners").
final class AccessTests: EndToEndTestCase {
  func testOtherUidsAreDeniedTheirAppsButRootIsNot() throws {
    try requireOtherUsers()
    let d = try startDaemon(["--clock", "manual=2026-01-01T08:00:00Z", "--socket-mode", "0666"])
    chmod(d.directory, 0o755)
    let schedule =
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"app":"com.owned","identifier":"r","content":{"title":"t"},"trigger":null}}"#
    let owner = try call(as: 65534, d.socketPath, schedule)
    XCTAssertEqual(owner?["result"]?["scheduled"], .bool(true), "\(String(describing: owner))")

    let list = #"{"jsonrpc":"2.0","id":2,"method":"listDelivered","params":{"app":"com.owned"}}"#
    let stranger = try call(as: 65533, d.socketPath, list)
    XCTAssertEqual(stranger?["error"]?["code"]?.intValue, -32001)
    XCTAssertEqual(stranger?["error"]?["data"]?["reason"]?.stringValue, "accessDenied")
    let hello = #"{"jsonrpc":"2.0","id":3,"method":"hello","params":{"appId":"com.owned"}}"#
    XCTAssertEqual(try call(as: 65533, d.socketPath, hello)?["error"]?["code"]?.intValue, -32001)
    let respond =
      #"{"jsonrpc":"2.0","id":4,"method":"respond","params":{"app":"com.owned","identifier":"r","actionIdentifier":"com.apple.UNNotificationDefaultActionIdentifier"}}"#
    XCTAssertEqual(try call(as: 65533, d.socketPath, respond)?["error"]?["code"]?.intValue, -32001)
    let wait =
      #"{"jsonrpc":"2.0","id":5,"method":"waitFor","params":{"app":"com.owned","event":{"type":"delivered"},"timeout":0}}"#
    XCTAssertEqual(try call(as: 65533, d.socketPath, wait)?["error"]?["code"]?.intValue, -32001)

    XCTAssertEqual(
      try call(as: 65534, d.socketPath, list)?["result"]?["notifications"]?[0]?["identifier"], .string("r"))
    let root = try userConnection(d)
    let rootList = try ok(root.call("listDelivered", json(#"{"app":"com.owned"}"#)))
    XCTAssertEqual(rootList["notifications"]?.arrayValue?.count, 1)
  }
}

/// Reads never create or claim an app: only a change (or `hello`) by a uid other than root
/// and the daemon's own claims it.
final class ClaimTests: EndToEndTestCase {
  /// Every read of an app that does not exist answers empty and creates nothing.
  func testReadsOfAnUnknownAppCreateNothing() throws {
    let d = try startDaemon()
    let user = try userConnection(d)
    let before = try ok(user.call("stats"))["apps"]
    assertJSON(try ok(user.call("listPending", json(#"{"app":"com.typo"}"#))), #"{"requests":[]}"#)
    assertJSON(try ok(user.call("listDelivered", json(#"{"app":"com.typo"}"#)))["notifications"], "[]")
    assertJSON(try ok(user.call("getCategories", json(#"{"app":"com.typo"}"#)))["categories"], "[]")
    assertJSON(try ok(user.call("getBadgeCount", json(#"{"app":"com.typo"}"#))), #"{"count":0}"#)
    try ok(user.call("getNotificationSettings", json(#"{"app":"com.typo"}"#)))
    try ok(user.call("getLocalizedStrings", json(#"{"app":"com.typo"}"#)))
    try ok(user.call("watch", json(#"{"apps":["com.typo"]}"#)))
    try ok(user.call("waitFor", json(#"{"app":"com.typo","event":{"type":"delivered"},"timeout":0}"#)))
    XCTAssertEqual(try ok(user.call("stats"))["apps"], before)
    XCTAssertEqual(before, .int(0))
  }

  /// A read by another uid does not claim the app: its real owner claims it with its
  /// first change, and the reader is refused from then on.
  func testAReadByAnotherUidDoesNotClaimTheApp() throws {
    try requireOtherUsers()
    let d = try startDaemon(["--clock", "manual=2026-01-01T08:00:00Z", "--socket-mode", "0666"])
    chmod(d.directory, 0o755)
    let list = #"{"jsonrpc":"2.0","id":1,"method":"listPending","params":{"app":"com.r"}}"#
    assertJSON(try call(as: 1001, d.socketPath, list)?["result"], #"{"requests":[]}"#)
    let schedule =
      #"{"jsonrpc":"2.0","id":2,"method":"scheduleLocal","params":{"app":"com.r","identifier":"x","content":{"title":"t"},"trigger":null}}"#
    let owner = try call(as: 1000, d.socketPath, schedule)
    XCTAssertEqual(owner?["result"]?["scheduled"], .bool(true), text(owner))
    XCTAssertEqual(try call(as: 1001, d.socketPath, list)?["error"]?["code"]?.intValue, -32001)
  }

  /// Root (an operator, a test harness) changes an app without claiming it: the app's own
  /// uid claims it afterwards.  `hello` by that uid claims it too.
  func testRootChangesAnAppWithoutClaimingIt() throws {
    try requireOtherUsers()
    let d = try startDaemon(["--clock", "manual=2026-01-01T08:00:00Z", "--socket-mode", "0666"])
    chmod(d.directory, 0o755)
    let root = try userConnection(d)
    try ok(root.call("setAuthorization", json(#"{"app":"com.harnessed","status":"denied"}"#)))
    let hello = #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"appId":"com.harnessed"}}"#
    XCTAssertNotNil(try call(as: 1000, d.socketPath, hello)?["result"])
    let settings = #"{"jsonrpc":"2.0","id":2,"method":"getNotificationSettings","params":{"app":"com.harnessed"}}"#
    XCTAssertEqual(try call(as: 1000, d.socketPath, settings)?["result"]?["authorizationStatus"], .string("denied"))
    XCTAssertEqual(try call(as: 1001, d.socketPath, settings)?["error"]?["code"]?.intValue, -32001)
  }

  /// An operator releases a claim without touching the app's state; the next change by a
  /// user claims it again.  Another user cannot release it.
  func testReleaseAppForgetsTheOwnerAndKeepsTheState() throws {
    try requireOtherUsers()
    let d = try startDaemon(["--clock", "manual=2026-01-01T08:00:00Z", "--socket-mode", "0666"])
    chmod(d.directory, 0o755)
    let schedule =
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"app":"com.m","identifier":"x","content":{"title":"t"},"trigger":{"type":"timeInterval","timeInterval":60,"repeats":false}}}"#
    XCTAssertEqual(try call(as: 1000, d.socketPath, schedule)?["result"]?["scheduled"], .bool(true))
    let release = #"{"jsonrpc":"2.0","id":2,"method":"releaseApp","params":{"app":"com.m"}}"#
    XCTAssertEqual(try call(as: 1001, d.socketPath, release)?["error"]?["code"]?.intValue, -32001)
    let root = try userConnection(d)
    assertJSON(try ok(root.call("releaseApp", json(#"{"app":"com.m"}"#))), #"{"released":true,"owner":1000}"#)
    assertJSON(try ok(root.call("releaseApp", json(#"{"app":"com.m"}"#))), #"{"released":false,"owner":null}"#)
    let list = #"{"jsonrpc":"2.0","id":3,"method":"listPending","params":{"app":"com.m"}}"#
    XCTAssertEqual(try call(as: 1001, d.socketPath, list)?["result"]?["requests"]?[0]?["identifier"], .string("x"))
    let again =
      #"{"jsonrpc":"2.0","id":4,"method":"setBadgeCount","params":{"app":"com.m","count":2}}"#
    XCTAssertNotNil(try call(as: 1001, d.socketPath, again)?["result"])
    XCTAssertEqual(try call(as: 1000, d.socketPath, list)?["error"]?["code"]?.intValue, -32001)
  }
}
