import Foundation
import JSONRPC
import TestSupport
import XCTest

/// A client chooses its app id, identifiers and texts, and they reach the daemon's log:
/// whatever they hold, the log is one line per event and carries no control character
/// that could clear an operator's terminal or forge a line.
final class LogSafetyTests: EndToEndTestCase {
  static let clear = "\u{1B}[2J\u{1B}[H"

  func testClientTextWithEscapeSequencesAndCarriageReturnsStaysOneSafeLinePerEvent() throws {
    let d = try startDaemon()
    let app = "com.evil\(Self.clear)\rlevel=error event=forged app=x"
    let identifier = "id\u{1B}]0;owned\u{07}\r\nlevel=warn event=forged\u{85}\u{2028}\u{202E}"
    let second = "second\u{1B}c\r"
    let text = "hi\(Self.clear)\r\nlevel=error event=forged\t\u{7F}"

    let c = try d.connect()
    _ = try ok(c.call("hello", .object(["appId": .string(app)])))
    let categories = json(
      #"[{"identifier":"msg","actions":[{"identifier":"reply","title":"Reply","options":[],"textInput":{"buttonTitle":"Send","placeholder":"Message"}}],"intentIdentifiers":[],"options":[]}]"#
    )
    _ = try ok(c.call("registerCategories", .object(["categories": categories])))
    for id in [identifier, second] {
      _ = try ok(
        c.call(
          "scheduleLocal",
          .object([
            "identifier": .string(id), "content": json(#"{"title":"T","categoryIdentifier":"msg"}"#), "trigger": .null,
          ])))
    }
    let user = try userConnection(d)
    _ = try ok(
      user.call(
        "respond",
        .object([
          "app": .string(app), "identifier": .string(identifier), "actionIdentifier": .string("reply"),
          "userText": .string(text),
        ])))
    _ = try ok(
      user.call("removeDelivered", .object(["app": .string(app), "identifiers": .array([.string(second)])])))
    let events = try XCTUnwrap(try ok(user.call("stats"))["events"]?.intValue)
    XCTAssertGreaterThanOrEqual(events, 6, "presented and delivered twice, responded, removed")

    // Every event's line, once the log thread wrote them all.
    let log = DaemonProcess.poll(timeout: 10) {
      d.stderr
    } until: { log in
      log.split(separator: "\n").filter { $0.contains(" seq=") }.count >= events
    }
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: d.stderrPath)))
    for (i, byte) in bytes.enumerated() where byte != 0x0A {
      XCTAssertFalse(byte < 0x20 || byte == 0x7F, "raw control byte \(byte) at \(i) of the log:\n\(log)")
    }
    for i in bytes.indices.dropLast() where bytes[i] == 0xC2 {
      XCTAssertFalse((0x80...0x9F).contains(bytes[i + 1]), "raw C1 control at \(i) of the log:\n\(log)")
    }
    XCTAssertFalse(log.contains("\u{2028}") || log.contains("\u{202E}"), log)

    let lines = log.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    for line in lines {
      XCTAssertTrue(line.hasPrefix("level="), "a line that is not a log line: \(line.debugDescription)")
      XCTAssertFalse(line.contains("\nlevel=") || line.hasPrefix("level=error event=forged"), String(line))
    }
    // One line per event: every number from 1 to the last, exactly once.
    let numbers = lines.compactMap { line -> Int? in
      guard let field = line.split(separator: " ").first(where: { $0.hasPrefix("seq=") }) else { return nil }
      return Int(field.dropFirst(4))
    }
    XCTAssertEqual(numbers.sorted(), Array(1...events), log)
    // The hostile text is there, escaped.
    XCTAssertTrue(log.contains(#"app="com.evil\x1b[2J\x1b[H\rlevel=error event=forged app=x""#), log)
    XCTAssertTrue(log.contains(#"\x1b]0;owned\x07\r\nlevel=warn event=forged\xc2\x85\xe2\x80\xa8\xe2\x80\xae""#), log)
    XCTAssertTrue(log.contains(#"userText="hi\x1b[2J\x1b[H\r\nlevel=error event=forged\t\x7f""#), log)
    XCTAssertTrue(log.contains(#"identifiers="second\x1bc\r""#), log)
  }
}
