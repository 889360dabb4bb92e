import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// The daemon under systemd's protocols, without systemd: socket activation through
/// `systemd-socket-activate`, notifications to a datagram socket the test binds, and
/// journal priority prefixes.
final class SystemdEndToEndTests: EndToEndTestCase {
  var directory = ""

  override func setUpWithError() throws {
    directory = try DaemonProcess.makeTemporaryDirectory()
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  func testSocketActivationServesAndLeavesTheInheritedSocket() throws {
    guard FileManager.default.isExecutableFile(atPath: DaemonProcess.socketActivator) else {
      throw XCTSkip("systemd-socket-activate is not installed")
    }
    let socket = directory + "/s.sock"
    // systemd-socket-activate listens first and starts the daemon on the first connection
    // (the one that waits for the socket).
    let daemon = try DaemonProcess(socketPath: socket, directory: directory, launch: .socketActivated)
    defer { daemon.stop() }
    let c = try RPCConnection(path: socket)
    try ok(c.call("ping"))
    let log = daemon.log(containing: "event=listening socket=\(socket) inherited=true")
    XCTAssertTrue(log.contains("event=listening socket=\(socket) inherited=true"), "stderr: \(log)")
    XCTAssertEqual(daemon.stop(signal: SIGTERM), 0, daemon.stderr)
    var st = stat()
    XCTAssertEqual(lstat(socket, &st), 0, "the inherited socket file was removed")
    XCTAssertEqual(st.st_mode & S_IFMT, S_IFSOCK)
    XCTAssertTrue(daemon.stderr.contains("event=stopped"), daemon.stderr)
  }

  func testNotifiesReadyWatchdogAndStopping() throws {
    let receiver = try NotifyReceiver(path: directory + "/notify.sock")
    let socket = directory + "/d.sock"
    let daemon = try DaemonProcess(
      socketPath: socket, directory: directory,
      environment: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "200000"], waitForSocket: false)
    defer { daemon.stop() }
    let ready = try XCTUnwrap(receiver.receive(), "no READY=1: \(daemon.stderr)")
    XCTAssertEqual(ready, "READY=1\nSTATUS=Listening on \(socket)\nMAINPID=\(daemon.process.processIdentifier)")
    // READY=1 means the socket already accepts.
    let c = try RPCConnection(path: socket)
    try ok(c.call("ping"))
    XCTAssertEqual(receiver.receive(), "WATCHDOG=1", daemon.stderr)
    XCTAssertEqual(daemon.stop(signal: SIGTERM, waitForExit: false), nil)
    var next = receiver.receive()
    while next == "WATCHDOG=1" { next = receiver.receive() }
    XCTAssertEqual(next, "STOPPING=1\nSTATUS=Stopping on SIGTERM", daemon.stderr)
    XCTAssertEqual(daemon.stop(), 0, daemon.stderr)
  }

  func testNoWatchdogForAnotherProcess() throws {
    let receiver = try NotifyReceiver(path: directory + "/notify.sock")
    let daemon = try DaemonProcess(
      socketPath: directory + "/d.sock", directory: directory,
      environment: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"],
      waitForSocket: false)
    defer { daemon.stop() }
    XCTAssertEqual(receiver.receive()?.hasPrefix("READY=1\n"), true, daemon.stderr)
    // Several would-be watchdog periods pass before the stop.
    usleep(600_000)
    daemon.stop(signal: SIGTERM, waitForExit: false)
    XCTAssertEqual(receiver.receive(), "STOPPING=1\nSTATUS=Stopping on SIGTERM", daemon.stderr)
    XCTAssertEqual(daemon.stop(), 0, daemon.stderr)
  }

  func testJournalStreamPrefixesPriorities() throws {
    let stderrPath = directory + "/journal.log"
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    var st = stat()
    XCTAssertEqual(stat(stderrPath, &st), 0)
    let socket = directory + "/d.sock"
    let daemon = try DaemonProcess(
      socketPath: socket, directory: directory, environment: ["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"],
      stderrPath: stderrPath)
    defer { daemon.stop() }
    XCTAssertEqual(daemon.stop(signal: SIGTERM), 0, daemon.stderr)
    let lines = daemon.stderr.split(separator: "\n")
    XCTAssertTrue(lines.contains { $0.hasPrefix("<6>level=info event=listening socket=\(socket) ") }, daemon.stderr)
    XCTAssertTrue(lines.contains("<6>level=info event=stopped"), daemon.stderr)
    XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("<") }, daemon.stderr)
  }

  func testJournalStreamOfAnotherFileKeepsPlainLines() throws {
    let socket = directory + "/d.sock"
    let daemon = try DaemonProcess(socketPath: socket, directory: directory, environment: ["JOURNAL_STREAM": "1:1"])
    defer { daemon.stop() }
    XCTAssertEqual(daemon.stop(signal: SIGTERM), 0, daemon.stderr)
    XCTAssertTrue(daemon.stderr.hasPrefix("level=info event=listening "), daemon.stderr)
  }

  func testSocketGroupOption() throws {
    guard getuid() == 0 else { throw XCTSkip("changing a file's group to another group needs root") }
    let socket = directory + "/d.sock"
    let daemon = try DaemonProcess(
      arguments: ["--socket-mode", "0660", "--socket-group", "1"] + DaemonProcess.defaultArguments, socketPath: socket,
      directory: directory)
    defer { daemon.stop() }
    var st = stat()
    XCTAssertEqual(lstat(socket, &st), 0)
    XCTAssertEqual(st.st_gid, 1)
    XCTAssertEqual(st.st_mode & 0o7777, 0o660)
  }
}
