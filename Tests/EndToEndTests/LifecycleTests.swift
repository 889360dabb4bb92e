import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// Signals, the socket file, and start-up refusals of the real process.
final class LifecycleTests: EndToEndTestCase {
  func fileExists(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0
  }

  func testSIGTERMExitsZeroAndRemovesSocket() throws {
    let d = try startDaemon()
    let c = try d.connect()
    try ok(c.call("ping"))
    XCTAssertTrue(fileExists(d.socketPath))
    XCTAssertEqual(d.stop(signal: SIGTERM), 0, d.stderr)
    XCTAssertFalse(fileExists(d.socketPath), "socket file left behind")
    XCTAssertTrue(c.isClosedByPeer(timeout: 10))
  }

  func testSIGINTExitsZeroAndRemovesSocket() throws {
    let d = try startDaemon()
    XCTAssertEqual(d.stop(signal: SIGINT), 0, d.stderr)
    XCTAssertFalse(fileExists(d.socketPath), "socket file left behind")
  }

  func testSocketModeIs0600() throws {
    let d = try startDaemon()
    var st = stat()
    XCTAssertEqual(lstat(d.socketPath, &st), 0)
    XCTAssertEqual(st.st_mode & S_IFMT, S_IFSOCK)
    XCTAssertEqual(st.st_mode & 0o7777, 0o600, String(st.st_mode & 0o7777, radix: 8))
  }

  func testSocketModeOption() throws {
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--socket-mode", "0660"])
    var st = stat()
    XCTAssertEqual(lstat(d.socketPath, &st), 0)
    XCTAssertEqual(st.st_mode & 0o7777, 0o660, String(st.st_mode & 0o7777, radix: 8))
  }

  func testStaleSocketIsReplaced() throws {
    let dir = try DaemonProcess.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/stale.sock"
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var addr = RawSocket.address(path)
    let bound = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    XCTAssertEqual(bound, 0)
    XCTAssertEqual(listen(fd, 1), 0)
    close(fd)
    XCTAssertTrue(fileExists(path), "the stale socket file should remain after close")
    XCTAssertThrowsError(try RawSocket(path: path), "nobody listens on a stale socket")

    let d = try DaemonProcess(socketPath: path, directory: dir)
    defer { d.stop() }
    let c = try d.connect()
    assertJSON(try ok(c.call("ping")), #"{"now":"2026-01-01T08:00:00.000Z"}"#)
    XCTAssertEqual(d.stop(), 0)
  }

  func testLiveSocketMakesSecondDaemonExitNonZero() throws {
    let first = try startDaemon()
    let second = try DaemonProcess(socketPath: first.socketPath, directory: first.directory, waitForSocket: false)
    defer { second.stop(signal: SIGKILL) }
    XCTAssertTrue(second.waitForExit(timeout: 10), "the second daemon kept running")
    let status = second.exitStatus
    XCTAssertNotNil(status)
    XCTAssertNotEqual(status, 0)
    XCTAssertTrue(second.stderr.contains(first.socketPath), "stderr does not name the path: \(second.stderr)")
    // The first daemon and its socket are untouched.
    XCTAssertTrue(fileExists(first.socketPath))
    let c = try first.connect()
    try ok(c.call("ping"))
  }

  func testNonSocketFileIsRefusedAndLeftUntouched() throws {
    let dir = try DaemonProcess.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/not-a-socket"
    let contents = Data("precious data\n".utf8)
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: contents))
    let d = try DaemonProcess(socketPath: path, directory: dir, waitForSocket: false)
    defer { d.stop(signal: SIGKILL) }
    XCTAssertTrue(d.waitForExit(timeout: 10), "the daemon kept running")
    XCTAssertNotNil(d.exitStatus)
    XCTAssertNotEqual(d.exitStatus, 0)
    XCTAssertTrue(d.stderr.contains(path), "stderr does not name the path: \(d.stderr)")
    XCTAssertEqual(FileManager.default.contents(atPath: path), contents)
  }

  func testSIGTERMAnswersWhatWasReadBeforeClosing() throws {
    let d = try startDaemon()
    let c = try d.connect()
    try ok(c.call("hello", json(#"{"appId":"com.example.chat"}"#)))
    XCTAssertEqual(d.stop(signal: SIGTERM), 0, d.stderr)
    XCTAssertTrue(d.stderr.contains("stopping"), d.stderr)
    XCTAssertTrue(c.isClosedByPeer(timeout: 10))
  }
  /// CPU time (user + system, clock ticks) the process has used so far.
  private func cpuTicks(_ pid: Int32) throws -> Int {
    let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
    return Int(fields[11])! + Int(fields[12])!
  }

  /// Busy polling (`--busy-poll`, on by default) ends with the burst of requests: a
  /// daemon answering a client one call at a time keeps answering, and once the client
  /// stops the daemon sleeps instead of polling on (a second of idleness costs it next
  /// to no CPU time; polling on would cost all of that second).
  func testTheLoopSleepsOnceRequestsStop() throws {
    let d = try startDaemon()
    let c = try d.connect()
    for _ in 0..<200 { try ok(c.call("ping")) }
    usleep(100_000)
    let before = try cpuTicks(d.process.processIdentifier)
    sleep(1)
    let used = try cpuTicks(d.process.processIdentifier) - before
    XCTAssertLessThan(used, 20, "\(used) ticks of CPU time in an idle second")
    try ok(c.call("ping"))
  }

  func testBusyPollOffIsAccepted() throws {
    let d = try startDaemon(DaemonProcess.defaultArguments + ["--busy-poll", "0"])
    let c = try d.connect()
    for _ in 0..<20 { try ok(c.call("ping")) }
  }

  /// Two daemons never share a state directory: the second stops at once and says why.
  func testASecondDaemonOnTheSameStateDirectoryStopsWithAClearMessage() throws {
    let state = try DaemonProcess.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: state) }
    let first = try startDaemon(DaemonProcess.defaultArguments + ["--state", state])
    try ok(first.connect().call("ping"))
    let second = try DaemonProcess(
      arguments: DaemonProcess.defaultArguments + ["--state", state], waitForSocket: false)
    XCTAssertTrue(second.waitForExit(timeout: 10), "the second daemon kept running")
    XCTAssertNotEqual(second.process.terminationStatus, 0)
    XCTAssertTrue(second.stderr.contains("is in use by another uncenterd"), second.stderr)
    try ok(first.connect().call("ping"))
  }
}
