import Foundation
import JSONRPC
import TestSupport
import XCTest

/// The manual clock stays a date RFC 3339 can write (year 9999 at most).
final class AdvanceClockBoundsTests: EndToEndTestCase {
  static let lastDate = "9999-12-31T23:59:59.999Z"

  func testAnAdvancePastYear9999IsRefusedNamingSecondsAndMovesNothing() throws {
    let d = try startDaemon(["--clock", "manual=9999-12-31T23:00:00Z"])
    let u = try userConnection(d)
    try schedule(u, "late", after: 1800, app: "com.a")
    try assertInvalidParams(u.call("advanceClock", J(#"{"seconds":3600}"#)), field: "seconds", problemContains: "9999")
    try assertInvalidParams(
      u.call("advanceClock", J(#"{"seconds":3162240000}"#)), field: "seconds", problemContains: "9999")
    // Nothing moved, nothing fired.
    assertJSON(try ok(u.call("ping")), #"{"now":"9999-12-31T23:00:00.000Z"}"#)
    XCTAssertEqual(try ok(u.call("listPending", J(#"{"app":"com.a"}"#)))["requests"]?.arrayValue?.count, 1)

    // Up to the last millisecond of 9999 is fine, and not one more.
    assertJSON(
      try ok(u.call("advanceClock", J(#"{"seconds":3599.999}"#))), #"{"now":"\#(Self.lastDate)","fired":["late"]}"#)
    try assertInvalidParams(u.call("advanceClock", J(#"{"seconds":0.001}"#)), field: "seconds", problemContains: "9999")
    assertJSON(try ok(u.call("advanceClock", J(#"{"seconds":0}"#))), #"{"now":"\#(Self.lastDate)","fired":[]}"#)
    assertJSON(try ok(u.call("ping")), #"{"now":"\#(Self.lastDate)"}"#)
  }

  /// The clock's start is bounded the same way: an offset that moves a year-9999 or
  /// year-0 date out of 0000-9999 in UTC is refused at start.
  func testAStartingTimeOutsideRFC3339InUTCIsRefused() throws {
    for start in ["9999-12-31T23:30:00-01:00", "0000-01-01T00:30:00+01:00"] {
      let d = try DaemonProcess(arguments: ["--clock", "manual=\(start)"], waitForSocket: false)
      addTeardownBlock { [d] in
        d.stop()
        try? FileManager.default.removeItem(atPath: d.directory)
      }
      XCTAssertTrue(d.waitForExit(timeout: 10), "uncenterd started with --clock manual=\(start)")
      XCTAssertNotEqual(d.exitStatus, 0)
      XCTAssertTrue(d.stderr.contains("--clock"), d.stderr)
    }
    let d = try startDaemon(["--clock", "manual=9999-12-31T23:30:00+01:00"])
    assertJSON(try ok(try d.connect().call("ping")), #"{"now":"9999-12-31T22:30:00.000Z"}"#)
  }

  /// The year bound holds across a restart: what `--state` keeps is a date within it.
  func testTheBoundHoldsWithState() throws {
    let dir = try DaemonProcess.makeTemporaryDirectory()
    addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
    let arguments = ["--clock", "manual=9999-12-31T00:00:00Z", "--state", dir + "/state"]
    let first = try DaemonProcess(arguments: arguments, directory: dir)
    let u = try userConnection(first)
    try assertInvalidParams(u.call("advanceClock", J(#"{"seconds":86400}"#)), field: "seconds")
    assertJSON(
      try ok(u.call("advanceClock", J(#"{"seconds":86399}"#))), #"{"now":"9999-12-31T23:59:59.000Z","fired":[]}"#)
    XCTAssertEqual(first.stop(), 0)
    let second = try startDaemon(arguments)
    let again = try userConnection(second)
    assertJSON(try ok(again.call("ping")), #"{"now":"9999-12-31T23:59:59.000Z"}"#)
    try assertInvalidParams(again.call("advanceClock", J(#"{"seconds":1}"#)), field: "seconds")
  }
}
