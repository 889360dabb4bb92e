import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// Issue 15's payload behaviours through a real daemon: callbacks for content-available
/// with an alert, attachments kept with `--state` across a restart, and localized strings
/// surviving a restart.
final class PayloadFidelityEndToEndTests: EndToEndTestCase {
  func testContentAvailableWithAnAlertPresentsThenWakesTheApp() throws {
    let d = try startDaemon()
    let app = try appConnection(d, appId: "com.example.news")
    let user = try userConnection(d)
    let r = try ok(
      user.call(
        "pushRemote",
        json(
          #"{"app":"com.example.news","identifier":"n1","payload":{"aps":{"alert":"New articles","content-available":1},"acme2":42}}"#
        )))
    assertJSON(r, #"{"identifier":"n1","delivered":true,"warnings":[]}"#)
    let first = try XCTUnwrap(try app.nextNotification(timeout: 5))
    let second = try XCTUnwrap(try app.nextNotification(timeout: 5))
    XCTAssertEqual(first["method"]?.stringValue, "present")
    XCTAssertEqual(second["method"]?.stringValue, "remote")
    XCTAssertEqual(second["params"]?["payload"]?["acme2"]?.intValue, 42)
  }

  func testAttachmentsAndStringsSurviveARestart() throws {
    let dir = try freshDirectory()
    let source = dir + "/photo.jpg"
    XCTAssertTrue(FileManager.default.createFile(atPath: source, contents: Data("JPEG".utf8)))
    var d = try stateDaemon(dir)
    var user = try userConnection(d)
    let url = URL(fileURLWithPath: source).absoluteString
    try ok(
      user.call(
        "scheduleLocal",
        json(
          #"{"app":"com.example.photos","identifier":"p","content":{"title":"Memories","attachments":[{"identifier":"photo","url":"\#(url)"}]},"trigger":{"type":"timeInterval","timeInterval":60}}"#
        )))
    try ok(
      user.call(
        "registerLocalizedStrings", json(#"{"app":"com.example.photos","strings":{"NEW":"%@ shared a photo"}}"#)))
    try FileManager.default.removeItem(atPath: source)
    XCTAssertEqual(d.stop(), 0)

    d = try stateDaemon(dir)
    user = try userConnection(d)
    let pending = try ok(user.call("listPending", json(#"{"app":"com.example.photos"}"#)))
    let copied = try XCTUnwrap(pending["requests"]?[0]?["content"]?["attachments"]?[0]?["url"]?.stringValue)
    let path = try XCTUnwrap(URL(string: copied)?.path)
    XCTAssertTrue(path.hasPrefix(dir + "/state/attachments/com.example.photos/"), path)
    XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "JPEG")
    try ok(
      user.call(
        "pushRemote",
        json(
          #"{"app":"com.example.photos","identifier":"s","payload":{"aps":{"alert":{"loc-key":"NEW","loc-args":["Anna"]}}}}"#
        )))
    let delivered = try ok(user.call("listDelivered", json(#"{"app":"com.example.photos"}"#)))
    XCTAssertEqual(delivered["notifications"]?[0]?["request"]?["content"]?["body"]?.stringValue, "Anna shared a photo")
    try ok(user.call("reset", json(#"{"app":"com.example.photos"}"#)))
    // Removed once the reset is durable, which its answer already waited for.
    let gone = DaemonProcess.poll(timeout: 5) {
      FileManager.default.fileExists(atPath: path) ? "" : "gone"
    } until: {
      !$0.isEmpty
    }
    XCTAssertEqual(gone, "gone", "reset removes the app's copies")
  }
}
