import Foundation
import TestSupport
import XCTest

@testable import UNServer

/// sd_notify addresses, watchdog intervals, socket activation checks and journal prefixes.
final class SystemdTests: XCTestCase {
  // MARK: - Notification socket

  func testPathAddressIncludesTerminator() throws {
    let (addr, length) = try XCTUnwrap(SystemdNotifier.socketAddress("/run/systemd/notify"))
    let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    XCTAssertEqual(Int(length), offset + "/run/systemd/notify".utf8.count + 1)
    XCTAssertEqual(SocketActivation.path(of: addr, length: length), "/run/systemd/notify")
  }

  func testAbstractAddressHasLeadingNULAndNoTerminator() throws {
    let (addr, length) = try XCTUnwrap(SystemdNotifier.socketAddress("@uncenter/notify"))
    let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    XCTAssertEqual(Int(length), offset + "@uncenter/notify".utf8.count)
    withUnsafeBytes(of: addr.sun_path) { XCTAssertEqual($0[0], 0) }
    XCTAssertEqual(SocketActivation.path(of: addr, length: length), "@uncenter/notify")
  }

  func testRejectsRelativeAndOverlongAddresses() {
    XCTAssertNil(SystemdNotifier.socketAddress("relative/notify"))
    XCTAssertNil(SystemdNotifier.socketAddress("@"))
    XCTAssertNil(SystemdNotifier.socketAddress("/" + String(repeating: "x", count: 200)))
  }

  func testDisabledWithoutNotifySocket() {
    let notifier = SystemdNotifier(environment: [:], log: Log(level: .error, journal: false))
    XCTAssertFalse(notifier.isEnabled)
    XCTAssertFalse(notifier.notify("READY=1"))
  }

  func testSendsDatagramsToPathSocket() throws {
    let dir = try DaemonProcess.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let receiver = try NotifyReceiver(path: dir + "/notify.sock")
    let notifier = SystemdNotifier(
      environment: ["NOTIFY_SOCKET": dir + "/notify.sock"], log: Log(level: .error, journal: false))
    XCTAssertTrue(notifier.isEnabled)
    notifier.ready(status: "Listening on /x\nsecond line")
    notifier.watchdog()
    notifier.stopping(status: "bye")
    XCTAssertEqual(receiver.receive(), "READY=1\nSTATUS=Listening on /x second line\nMAINPID=\(getpid())")
    XCTAssertEqual(receiver.receive(), "WATCHDOG=1")
    XCTAssertEqual(receiver.receive(), "STOPPING=1\nSTATUS=bye")
  }

  func testSendsDatagramsToAbstractSocket() throws {
    let name = "uncenter-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let receiver = try NotifyReceiver(abstract: name)
    let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name], log: Log(level: .error, journal: false))
    XCTAssertTrue(notifier.notify("WATCHDOG=1"))
    XCTAssertEqual(receiver.receive(), "WATCHDOG=1")
  }

  func testFailureIsNotFatal() throws {
    let notifier = SystemdNotifier(
      environment: ["NOTIFY_SOCKET": "/nonexistent-dir-\(getpid())/notify"], log: Log(level: .error, journal: false))
    XCTAssertFalse(notifier.notify("READY=1"))
    XCTAssertFalse(notifier.notify("READY=1"))
  }

  // MARK: - Watchdog

  func testWatchdogIntervalIsHalfTheTimeout() {
    XCTAssertEqual(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000"], pid: 42), 15000)
    XCTAssertEqual(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "200000"], pid: 42), 100)
    XCTAssertEqual(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "1"], pid: 42), 1)
  }

  func testWatchdogOnlyForThisProcess() {
    XCTAssertNil(SystemdNotifier.watchdogInterval(environment: [:], pid: 42))
    XCTAssertNil(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "0"], pid: 42))
    XCTAssertNil(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "x"], pid: 42))
    XCTAssertNil(
      SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "43"], pid: 42))
    XCTAssertEqual(
      SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "42"], pid: 42), 100)
  }

  // MARK: - Socket activation

  func testNoListenersWithoutVariablesOrForAnotherProcess() throws {
    XCTAssertEqual(try SocketActivation.listeners(environment: [:], pid: 42, start: 3), [])
    XCTAssertEqual(
      try SocketActivation.listeners(environment: ["LISTEN_PID": "41", "LISTEN_FDS": "1"], pid: 42, start: 3), [])
    XCTAssertThrowsError(
      try SocketActivation.listeners(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "many"], pid: 42, start: 3))
  }

  func testAcceptsListeningUnixStreamSocketAndSetsCloexec() throws {
    let dir = try DaemonProcess.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fd = try unixSocket(type: SOCK_STREAM, path: dir + "/l.sock", listening: true)
    defer { close(fd) }
    XCTAssertEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0)
    let found = try SocketActivation.listeners(
      environment: ["LISTEN_PID": "42", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "uncenterd.socket"], pid: 42, start: fd)
    XCTAssertEqual(found, [SocketActivation.Listener(fd: fd, name: "uncenterd.socket", path: dir + "/l.sock")])
    XCTAssertNotEqual(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0)
  }

  func testRejectsNonListeningDatagramAndNonSocketDescriptors() throws {
    let dir = try DaemonProcess.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let env = ["LISTEN_PID": "42", "LISTEN_FDS": "1"]
    let bound = try unixSocket(type: SOCK_STREAM, path: dir + "/b.sock", listening: false)
    defer { close(bound) }
    XCTAssertThrowsError(try SocketActivation.listeners(environment: env, pid: 42, start: bound)) {
      XCTAssertTrue("\($0)".contains("not listening"), "\($0)")
    }
    let datagram = try unixSocket(type: SOCK_DGRAM, path: dir + "/d.sock", listening: false)
    defer { close(datagram) }
    XCTAssertThrowsError(try SocketActivation.listeners(environment: env, pid: 42, start: datagram)) {
      XCTAssertTrue("\($0)".contains("not a stream socket"), "\($0)")
    }
    let file = open(dir + "/plain", O_CREAT | O_RDWR, 0o600)
    defer { close(file) }
    XCTAssertThrowsError(try SocketActivation.listeners(environment: env, pid: 42, start: file)) {
      XCTAssertTrue("\($0)".contains("not a socket"), "\($0)")
    }
    let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(tcp) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bindResult = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(tcp, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    if bindResult == 0, listen(tcp, 1) == 0 {
      XCTAssertThrowsError(try SocketActivation.listeners(environment: env, pid: 42, start: tcp)) {
        XCTAssertTrue("\($0)".contains("not an AF_UNIX"), "\($0)")
      }
    }
  }

  func testInheritedListenersUnsetsVariables() throws {
    setenv("LISTEN_PID", "1", 1)
    setenv("LISTEN_FDS", "1", 1)
    setenv("LISTEN_FDNAMES", "x", 1)
    let found = try SocketActivation.inheritedListeners(environment: ["LISTEN_PID": "1", "LISTEN_FDS": "1"])
    XCTAssertEqual(found, [])
    XCTAssertNil(getenv("LISTEN_PID"))
    XCTAssertNil(getenv("LISTEN_FDS"))
    XCTAssertNil(getenv("LISTEN_FDNAMES"))
  }

  // MARK: - Journal priorities

  func testPlainLogfmtOutsideTheJournal() {
    let log = Log(level: .debug, journal: false)
    XCTAssertEqual(log.format(.info, "listening", ["socket": "/a b"]), "level=info event=listening socket=\"/a b\"\n")
  }

  func testJournalPriorityPrefixes() {
    let log = Log(level: .debug, journal: true)
    XCTAssertEqual(log.format(.debug, "e", [:]), "<7>level=debug event=e\n")
    XCTAssertEqual(log.format(.info, "e", ["k": "v"]), "<6>level=info event=e k=v\n")
    XCTAssertEqual(log.format(.warn, "e", [:]), "<4>level=warn event=e\n")
    XCTAssertEqual(log.format(.error, "e", [:]), "<3>level=error event=e\n")
  }

  func testJournalStreamMustMatchTheDescriptor() throws {
    let dir = try DaemonProcess.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fd = open(dir + "/stderr", O_CREAT | O_RDWR, 0o600)
    defer { close(fd) }
    var st = stat()
    XCTAssertEqual(fstat(fd, &st), 0)
    let matching = "\(st.st_dev):\(st.st_ino)"
    XCTAssertTrue(Log.stderrIsJournal(environment: ["JOURNAL_STREAM": matching], fd: fd))
    XCTAssertFalse(Log.stderrIsJournal(environment: ["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino + 1)"], fd: fd))
    XCTAssertFalse(Log.stderrIsJournal(environment: ["JOURNAL_STREAM": "garbage"], fd: fd))
    XCTAssertFalse(Log.stderrIsJournal(environment: [:], fd: fd))
  }

  // MARK: - Options

  func testSocketGroupOption() throws {
    XCTAssertEqual(try ServerConfiguration.parse(["--socket-group", "uncenter"]).0.socketGroup, "uncenter")
    XCTAssertEqual(try ServerConfiguration.parse(["--socket-group=10001"]).0.socketGroup, "10001")
    XCTAssertNil(try ServerConfiguration.parse([]).0.socketGroup)
    XCTAssertThrowsError(try ServerConfiguration.parse(["--socket-group", ""]))
    XCTAssertEqual(Server.groupID("0"), 0)
    XCTAssertEqual(Server.groupID("root"), 0)
    XCTAssertNil(Server.groupID("no-such-group-\(getpid())"))
  }

  // MARK: - Helpers

  func unixSocket(type: __socket_type, path: String, listening: Bool) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(type.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket") }
    let (address, length) = try XCTUnwrap(SystemdNotifier.socketAddress(path))
    var addr = address
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard rc == 0 else { throw HarnessError("bind \(path): \(String(cString: strerror(errno)))") }
    if listening, listen(fd, 1) != 0 { throw HarnessError("listen") }
    return fd
  }
}
