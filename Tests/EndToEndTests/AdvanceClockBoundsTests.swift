import Foundation
import JSONRPC
import TestSupport
import XCTest

/// The manual clock stays a date RFC 3339 can write (year 9999 at most), and a long
/// `advanceClock` fires in bounded memory: its firings are routed as they happen, and
/// its answer lists the first ones with a count.
final class AdvanceClockBoundsTests: EndToEndTestCase {
  static let lastDate = "9999-12-31T23:59:59.999Z"

  /// The peak resident set (VmHWM, kB) from /proc.
  private func peakKilobytes(_ pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      if let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
        return kb
      }
    }
    throw HarnessError("no VmHWM in /proc/\(pid)/status")
  }

  func testAnAdvancePastYear9999IsRefusedNamingSecondsAndMovesNothing() throws {
    let d = try startDaemon(["--clock", "manual=9999-12-31T23:00:00Z"])
    let u = try userConnection(d)
    try schedule(u, "late", after: 1800, app: "com.a")
    try assertInvalidParams(
      u.call("advanceClock", json(#"{"seconds":3600}"#)), field: "seconds", problemContains: "9999")
    try assertInvalidParams(
      u.call("advanceClock", json(#"{"seconds":3162240000}"#)), field: "seconds", problemContains: "9999")
    // Nothing moved, nothing fired.
    assertJSON(try ok(u.call("ping")), #"{"now":"9999-12-31T23:00:00.000Z"}"#)
    XCTAssertEqual(try ok(u.call("listPending", json(#"{"app":"com.a"}"#)))["requests"]?.arrayValue?.count, 1)

    // Up to the last millisecond of 9999 is fine, and not one more.
    assertJSON(
      try ok(u.call("advanceClock", json(#"{"seconds":3599.999}"#))), #"{"now":"\#(Self.lastDate)","fired":["late"]}"#)
    try assertInvalidParams(
      u.call("advanceClock", json(#"{"seconds":0.001}"#)), field: "seconds", problemContains: "9999")
    assertJSON(try ok(u.call("advanceClock", json(#"{"seconds":0}"#))), #"{"now":"\#(Self.lastDate)","fired":[]}"#)
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
    let dir = try freshDirectory()
    let arguments = ["--clock", "manual=9999-12-31T00:00:00Z", "--state", dir + "/state"]
    let first = try DaemonProcess(arguments: arguments, directory: dir)
    let u = try userConnection(first)
    try assertInvalidParams(u.call("advanceClock", json(#"{"seconds":86400}"#)), field: "seconds")
    assertJSON(
      try ok(u.call("advanceClock", json(#"{"seconds":86399}"#))), #"{"now":"9999-12-31T23:59:59.000Z","fired":[]}"#)
    XCTAssertEqual(first.stop(), 0)
    let second = try startDaemon(arguments)
    let again = try userConnection(second)
    assertJSON(try ok(again.call("ping")), #"{"now":"9999-12-31T23:59:59.000Z"}"#)
    try assertInvalidParams(again.call("advanceClock", json(#"{"seconds":1}"#)), field: "seconds")
  }

  /// One year of a once-a-minute trigger (525,600 firings): the daemon's peak resident
  /// set stays within twice the idle daemon's, and the answer lists the first firings
  /// with their count.
  @discardableResult
  private func assertAYearOfAOnceAMinuteTriggerFitsInBoundedMemory(_ extra: [String]) throws -> DaemonProcess {
    let d = try startDaemon(DaemonProcess.defaultArguments + extra)
    let pid = d.process.processIdentifier
    let u = try userConnection(d)
    try schedule(u, "tick", after: 60, repeats: true, app: "com.a")
    _ = try ok(u.call("stats"))
    let idle = try peakKilobytes(pid)

    let advanced = try ok(u.call("advanceClock", json(#"{"seconds":31536000}"#), timeout: 600))
    let peak = try peakKilobytes(pid)
    XCTAssertEqual(advanced["now"]?.stringValue, "2027-01-01T08:00:00.000Z")
    XCTAssertEqual(advanced["firedCount"]?.intValue, 525_600)
    XCTAssertEqual(advanced["truncated"]?.boolValue, true)
    let fired = try XCTUnwrap(advanced["fired"]?.arrayValue)
    XCTAssertEqual(fired.count, 1000)
    XCTAssertTrue(fired.allSatisfy { $0 == .string("tick") })
    print("advance of a year over a once-a-minute trigger \(extra): VmHWM idle \(idle) kB, after \(peak) kB")
    XCTAssertLessThan(peak, 2 * idle, "peak \(peak) kB against \(idle) kB idle")

    // Everything happened: the last firing's notification is delivered, the next is due.
    let pending = try ok(u.call("listPending", json(#"{"app":"com.a"}"#)))
    XCTAssertEqual(pending["requests"]?[0]?["nextTriggerDate"]?.stringValue, "2027-01-01T08:01:00.000Z")
    let delivered = try ok(u.call("listDelivered", json(#"{"app":"com.a"}"#)))
    XCTAssertEqual(delivered["notifications"]?[0]?["date"]?.stringValue, "2027-01-01T08:00:00.000Z")
    XCTAssertEqual(try ok(u.call("stats"))["events"]?.intValue, 2 * 525_600 + 1, "scheduled, then fired and delivered")
    return d
  }

  func testAYearOfAOnceAMinuteTriggerFiresInBoundedMemory() throws {
    try assertAYearOfAOnceAMinuteTriggerFitsInBoundedMemory([])
  }

  func testAYearOfAOnceAMinuteTriggerFiresInBoundedMemoryWithState() throws {
    let dir = try freshDirectory()
    let first = try assertAYearOfAOnceAMinuteTriggerFitsInBoundedMemory(["--state", dir + "/state"])
    XCTAssertEqual(first.stop(), 0)
    // And what was committed is that year: a restart resumes from it.
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--state", dir + "/state"])
    let u = try userConnection(d)
    assertJSON(try ok(u.call("ping")), #"{"now":"2027-01-01T08:00:00.000Z"}"#)
    let pending = try ok(u.call("listPending", json(#"{"app":"com.a"}"#)))
    XCTAssertEqual(pending["requests"]?[0]?["nextTriggerDate"]?.stringValue, "2027-01-01T08:01:00.000Z")
    let delivered = try ok(u.call("listDelivered", json(#"{"app":"com.a"}"#)))
    XCTAssertEqual(delivered["notifications"]?[0]?["date"]?.stringValue, "2027-01-01T08:00:00.000Z")
    // Event numbers resume above the committed ones (never reused).
    XCTAssertGreaterThanOrEqual(try ok(u.call("stats"))["events"]?.intValue ?? 0, 2 * 525_600 + 1)
  }

  /// Connections that get the firings' callbacks (the app's own, in the foreground, and a
  /// watcher of every event) and do not read them: the outbound limit applies to what
  /// piles up for them during the advance, so memory stays bounded; they are
  /// disconnected, the advance completes, and the caller is answered.
  func testConnectionsThatDoNotReadTheFiringsAreCutOffAtTheOutboundLimit() throws {
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--max-outbound-bytes", "1048576"])
    let pid = d.process.processIdentifier
    let app = try d.raw()
    try app.send(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"appId":"com.a"}}"# + "\n")
    XCTAssertNotNil(parseLine(app.readLine())?["result"])
    let watcher = try d.raw()
    try watcher.send(#"{"jsonrpc":"2.0","id":1,"method":"watch"}"# + "\n")
    XCTAssertNotNil(parseLine(watcher.readLine())?["result"])
    let u = try userConnection(d)
    try schedule(u, "tick", after: 60, repeats: true, content: #"{"title":"T","body":"B"}"#, app: "com.a")
    _ = try ok(u.call("stats"))
    let idle = try peakKilobytes(pid)

    let advanced = try ok(u.call("advanceClock", json(#"{"seconds":31536000}"#), timeout: 600))
    let peak = try peakKilobytes(pid)
    XCTAssertEqual(advanced["firedCount"]?.intValue, 525_600)
    print(
      "advance of a year with a foreground app and a watcher that do not read: VmHWM idle \(idle) kB, after \(peak) kB")
    XCTAssertLessThan(peak, 2 * idle, "peak \(peak) kB against \(idle) kB idle")
    XCTAssertTrue(app.isClosedByPeer(timeout: 10), "the app connection was cut off")
    XCTAssertTrue(watcher.isClosedByPeer(timeout: 10), "the watcher was cut off")
    XCTAssertEqual(try ok(u.call("stats"))["connections"]?.intValue, 1)
  }
}
