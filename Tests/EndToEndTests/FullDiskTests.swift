import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// `--state` on a file system that fills up: the daemon keeps serving.  Every change is
/// answered (written, or refused with -32010 naming the state directory and the system's
/// error); reads, pings, stats and watchers go on; one log line and one event announce the
/// condition and its end; once there is room it takes changes again by itself; and every
/// acknowledged change survives kill -9.
final class FullDiskTests: EndToEndTestCase {
  private var disk: SmallFilesystem?

  override func tearDown() {
    disk?.unmount()
    disk = nil
    super.tearDown()
  }

  private func mount(_ bytes: Int) throws -> SmallFilesystem {
    let (made, reason) = try SmallFilesystem.make(bytes: bytes)
    guard let made else { throw XCTSkip(reason) }
    disk = made
    return made
  }

  private func stateDaemon(_ disk: SmallFilesystem) throws -> DaemonProcess {
    let d = try DaemonProcess(arguments: ["--clock", "manual=2026-01-01T08:00:00Z", "--state", disk.path + "/state"])
    addTeardownBlock { [d] in
      d.stop()
      try? FileManager.default.removeItem(atPath: d.directory)
    }
    return d
  }

  /// A request of about `bytes` bytes of content.
  private func bigSchedule(_ id: String, bytes: Int = 20_000) -> JSONValue {
    let body = String(repeating: "x", count: bytes)
    return json(
      #"{"app":"com.disk","identifier":"\#(id)","content":{"title":"T","body":"\#(body)"},"trigger":{"type":"timeInterval","timeInterval":3600,"repeats":false}}"#
    )
  }

  func testAFullDiskRefusesChangesKeepsServingAndRecoversByItself() throws {
    let disk = try mount(8 << 20)
    let d = try stateDaemon(disk)
    let user = try userConnection(d)
    let watcher = try d.connect()
    try ok(watcher.call("watch", json("{}")))
    var acknowledged: [String] = []
    for i in 0..<5 {
      try ok(user.call("scheduleLocal", bigSchedule("before-\(i)")))
      acknowledged.append("before-\(i)")
    }
    disk.fill()

    // Every change gets an answer: written (the first on the reserve's room) or refused.
    var refused: RPCError?
    var i = 0
    while refused == nil && i < 2000 {
      let id = "during-\(i)"
      switch try user.call("scheduleLocal", bigSchedule(id), timeout: 10) {
      case .success: acknowledged.append(id)
      case .failure(let e): refused = e
      }
      i += 1
    }
    let error = try XCTUnwrap(refused, "no change was refused on a full disk")
    XCTAssertEqual(error.code.rawValue, -32010, error.message)
    XCTAssertEqual(error.data?["reason"]?.stringValue, "stateNotWritable")
    XCTAssertEqual(error.data?["directory"]?.stringValue, disk.path + "/state")
    XCTAssertTrue(error.message.contains(disk.path + "/state"), error.message)
    XCTAssertTrue(error.message.contains("No space left on device"), error.message)
    // Refused again, up front, without any new log line.
    try failure(user.call("scheduleLocal", bigSchedule("refused-again")), -32010, reason: "stateNotWritable")
    try failure(user.call("removePending", json(#"{"app":"com.disk","identifiers":["before-0"]}"#)), -32010)
    try failure(user.call("setBadgeCount", json(#"{"app":"com.disk","count":3}"#)), -32010)

    // Reads, ping and stats go on, and show everything acknowledged.
    try ok(user.call("ping"))
    let listed = try ok(user.call("listPending", json(#"{"app":"com.disk"}"#)))["requests"]?.arrayValue ?? []
    XCTAssertEqual(Set(listed.compactMap { $0["identifier"]?.stringValue }), Set(acknowledged))
    let state = try ok(user.call("stats"))["state"]
    XCTAssertEqual(state?["writable"], .bool(false))
    XCTAssertEqual(state?["directory"]?.stringValue, disk.path + "/state")
    XCTAssertTrue(state?["error"]?.stringValue?.contains("No space left on device") ?? false, text(state))
    let announced = try XCTUnwrap(waitForEvent(watcher, "stateNotWritable"))
    XCTAssertEqual(announced["directory"]?.stringValue, disk.path + "/state")
    XCTAssertEqual(announced["app"], .null)

    // Room again: the daemon notices by itself and takes changes.
    disk.free()
    let back = try XCTUnwrap(waitForEvent(watcher, "stateWritable", timeout: 10), "the daemon never recovered")
    XCTAssertEqual(back["directory"]?.stringValue, disk.path + "/state")
    XCTAssertEqual(try ok(user.call("stats"))["state"]?["writable"], .bool(true))
    try ok(user.call("scheduleLocal", bigSchedule("after")))
    acknowledged.append("after")

    // One line for the condition and one for its end, and a log line for every
    // acknowledged request.
    let log = d.log(containing: "event=state_writable", "id=after")
    XCTAssertEqual(log.components(separatedBy: "event=state_not_writable").count - 1, 1, log)
    XCTAssertEqual(log.components(separatedBy: "event=state_writable").count - 1, 1, log)
    let scheduledLines = log.split(separator: "\n").filter { $0.contains("event=scheduled ") }
    for id in acknowledged {
      XCTAssertEqual(scheduledLines.filter { $0.hasSuffix(" id=\(id)") || $0.contains(" id=\(id) ") }.count, 1, id)
    }

    // Nothing acknowledged is lost.
    XCTAssertTrue(d.kill9())
    let again = try stateDaemon(disk)
    let restarted = try userConnection(again)
    let kept = try ok(restarted.call("listPending", json(#"{"app":"com.disk"}"#)))["requests"]?.arrayValue ?? []
    XCTAssertEqual(Set(kept.compactMap { $0["identifier"]?.stringValue }), Set(acknowledged))
    XCTAssertEqual(try ok(restarted.call("stats"))["state"]?["writable"], .bool(true))
  }

  /// A daemon started on a disk with no room for its reserve starts refusing changes, and
  /// takes them once there is room.  (With no room at all, SQLite cannot open the state:
  /// the daemon does not start, and says why.)
  func testStartingOnAFullDiskRefusesChangesUntilThereIsRoom() throws {
    let disk = try mount(4 << 20)
    // A first run makes the state, then the disk fills while the daemon is down.
    var d = try stateDaemon(disk)
    try ok(try userConnection(d).call("scheduleLocal", bigSchedule("kept", bytes: 100)))
    d.stop()
    try FileManager.default.removeItem(atPath: disk.path + "/state/uncenter.reserve")
    disk.fill(leaving: 256 << 10)
    d = try stateDaemon(disk)
    let user = try userConnection(d)
    try failure(user.call("scheduleLocal", bigSchedule("no", bytes: 100)), -32010, reason: "stateNotWritable")
    let listed = try ok(user.call("listPending", json(#"{"app":"com.disk"}"#)))["requests"]?.arrayValue ?? []
    XCTAssertEqual(listed.compactMap { $0["identifier"]?.stringValue }, ["kept"])
    disk.free()
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline, try ok(user.call("stats"))["state"]?["writable"] != .bool(true) { usleep(50_000) }
    try ok(user.call("scheduleLocal", bigSchedule("yes", bytes: 100)))
  }

  /// Without a reserve, the commit that meets the full disk waits, and its caller's answer
  /// with it; the daemon goes on serving everyone else, and once there is room the commit
  /// is written and the answer sent (acknowledged late, never lost, never half-applied).
  func testWithoutAReserveTheFailingCommitWaitsForRoomWhileOthersAreServed() throws {
    let disk = try mount(8 << 20)
    let d = try DaemonProcess(arguments: [
      "--clock", "manual=2026-01-01T08:00:00Z", "--state", disk.path + "/state", "--state-reserve", "0",
    ])
    addTeardownBlock { [d] in d.stop() }
    let writer = try userConnection(d)
    let other = try userConnection(d)
    try ok(writer.call("scheduleLocal", bigSchedule("first")))
    disk.fill()
    var waiting: String?
    for i in 0..<2000 {
      try writer.send(
        JSONValue.object([
          JSONMember("jsonrpc", .string("2.0")), JSONMember("id", .int(1000 + i)),
          JSONMember("method", .string("scheduleLocal")), JSONMember("params", bigSchedule("w\(i)")),
        ]).encoded() + [0x0A])
      guard let answer = try writer.readMessage(timeout: 2) else {
        waiting = "w\(i)"
        break
      }
      XCTAssertNotNil(answer["result"]?["scheduled"], text(answer))
    }
    let stuck = try XCTUnwrap(waiting, "the disk never filled")
    // Others are served meanwhile, and changes are refused.
    try ok(other.call("ping", nil, timeout: 5))
    try failure(other.call("setBadgeCount", json(#"{"app":"com.disk","count":1}"#), timeout: 5), -32010)
    XCTAssertEqual(try ok(other.call("stats", nil, timeout: 5))["state"]?["writable"], .bool(false))
    disk.free()
    let late = try XCTUnwrap(writer.readMessage(timeout: 10), "the waiting change was never answered")
    XCTAssertEqual(late["result"]?["identifier"]?.stringValue, stuck, text(late))
    XCTAssertTrue(d.kill9())
    let again = try stateDaemon(disk)
    let kept = try ok(try userConnection(again).call("listPending", json(#"{"app":"com.disk"}"#)))["requests"]
    XCTAssertTrue(kept?.arrayValue?.contains { $0["identifier"]?.stringValue == stuck } ?? false, text(kept))
  }

  /// The next `event` notification of `type` on a watching connection.
  private func waitForEvent(_ c: RPCConnection, _ type: String, timeout: Double = 5) throws -> JSONValue? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      guard let n = try c.nextNotification(timeout: deadline.timeIntervalSinceNow) else { return nil }
      if n["params"]?["type"]?.stringValue == type { return n["params"] }
    }
    return nil
  }
}
