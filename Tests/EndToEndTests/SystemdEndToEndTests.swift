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
    let activator = "/usr/bin/systemd-socket-activate"
    guard FileManager.default.isExecutableFile(atPath: activator) else {
      throw XCTSkip("systemd-socket-activate is not installed")
    }
    let socket = directory + "/s.sock"
    let daemon = try ServiceProcess(
      executable: activator, arguments: ["-l", socket, try DaemonProcess.binary()] + DaemonProcess.defaultArguments,
      directory: directory)
    defer { daemon.stop() }
    // systemd-socket-activate listens first and starts the daemon on the first connection.
    try daemon.waitForSocketFile(socket)
    let c = try RPCConnection(path: socket)
    try ok(c.call("ping"))
    let log = DaemonProcess.poll(timeout: 10) {
      daemon.stderr
    } until: {
      $0.contains("event=listening socket=\(socket) inherited=true")
    }
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
    let daemon = try ServiceProcess(
      executable: try DaemonProcess.binary(), arguments: ["--socket", socket] + DaemonProcess.defaultArguments,
      environment: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "200000"], directory: directory)
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
    let daemon = try ServiceProcess(
      executable: try DaemonProcess.binary(),
      arguments: ["--socket", directory + "/d.sock"] + DaemonProcess.defaultArguments,
      environment: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"],
      directory: directory)
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
    let daemon = try ServiceProcess(
      executable: try DaemonProcess.binary(), arguments: ["--socket", socket] + DaemonProcess.defaultArguments,
      environment: ["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"], directory: directory, stderrPath: stderrPath)
    defer { daemon.stop() }
    try daemon.waitForSocketFile(socket)
    XCTAssertEqual(daemon.stop(signal: SIGTERM), 0, daemon.stderr)
    let lines = daemon.stderr.split(separator: "\n")
    XCTAssertTrue(lines.contains { $0.hasPrefix("<6>level=info event=listening socket=\(socket) ") }, daemon.stderr)
    XCTAssertTrue(lines.contains("<6>level=info event=stopped"), daemon.stderr)
    XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("<") }, daemon.stderr)
  }

  func testJournalStreamOfAnotherFileKeepsPlainLines() throws {
    let socket = directory + "/d.sock"
    let daemon = try ServiceProcess(
      executable: try DaemonProcess.binary(), arguments: ["--socket", socket] + DaemonProcess.defaultArguments,
      environment: ["JOURNAL_STREAM": "1:1"], directory: directory)
    defer { daemon.stop() }
    try daemon.waitForSocketFile(socket)
    XCTAssertEqual(daemon.stop(signal: SIGTERM), 0, daemon.stderr)
    XCTAssertTrue(daemon.stderr.hasPrefix("level=info event=listening "), daemon.stderr)
  }

  func testSocketGroupOption() throws {
    guard getuid() == 0 else { throw XCTSkip("changing a file's group to another group needs root") }
    let socket = directory + "/d.sock"
    let daemon = try ServiceProcess(
      executable: try DaemonProcess.binary(),
      arguments: ["--socket", socket, "--socket-mode", "0660", "--socket-group", "1"] + DaemonProcess.defaultArguments,
      directory: directory)
    defer { daemon.stop() }
    try daemon.waitForSocketFile(socket)
    var st = stat()
    XCTAssertEqual(lstat(socket, &st), 0)
    XCTAssertEqual(st.st_gid, 1)
    XCTAssertEqual(st.st_mode & 0o7777, 0o660)
  }
}

/// A child process with extra environment variables and stderr captured to a file.
/// Variables that would make it think it runs under systemd are removed unless given.
final class ServiceProcess {
  let process = Process()
  let stderrPath: String
  private var stopped = false

  init(
    executable: String, arguments: [String], environment: [String: String] = [:], directory: String,
    stderrPath: String? = nil
  ) throws {
    self.stderrPath = stderrPath ?? directory + "/stderr-\(UUID().uuidString.prefix(8)).log"
    if stderrPath == nil { _ = FileManager.default.createFile(atPath: self.stderrPath, contents: nil) }
    var env = ProcessInfo.processInfo.environment
    for key in [
      "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "JOURNAL_STREAM",
    ] {
      env[key] = nil
    }
    env.merge(environment) { $1 }
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = env
    process.standardError = FileHandle(forWritingAtPath: self.stderrPath)
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  deinit { stop() }

  var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  /// Waits until `path` is a socket someone accepts on (or throws after 10 s).
  func waitForSocketFile(_ path: String, timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let s = try? RawSocket(path: path) {
        s.close()
        return
      }
      guard process.isRunning else { throw HarnessError("exited with \(process.terminationStatus): \(stderr)") }
      usleep(20_000)
    }
    throw HarnessError("\(path) did not accept within \(timeout) s: \(stderr)")
  }

  /// Sends `signal` (unless already stopped) and, with `waitForExit`, waits for the exit
  /// status (SIGKILL after 10 s; nil then, or if it died of a signal).
  @discardableResult
  func stop(signal: Int32 = SIGTERM, waitForExit: Bool = true) -> Int32? {
    if !stopped, process.isRunning {
      kill(process.processIdentifier, signal)
    }
    stopped = true
    guard waitForExit else { return nil }
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    return process.terminationReason == .exit ? process.terminationStatus : nil
  }
}

/// A bound AF_UNIX datagram socket standing in for systemd's notification socket.
final class NotifyReceiver {
  let fd: Int32
  let path: String

  init(path: String) throws {
    self.path = path
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
    var addr = RawSocket.address(path)
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard rc == 0 else { throw HarnessError("bind \(path): \(String(cString: strerror(errno)))") }
  }

  deinit { close(fd) }

  /// The next datagram, or nil after `timeout` seconds.
  func receive(timeout: Double = 10) -> String? {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    return n >= 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
  }
}
