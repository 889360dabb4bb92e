import Foundation
import JSONRPC
import UNCenterClient
import XCTest

/// The real `uncenterd` binary, started as a child process on a socket in a fresh
/// temporary directory, with its stderr captured to a file.
final class DaemonProcess {
  static let defaultArguments = ["--clock", "manual=2026-01-01T08:00:00Z"]

  let directory: String
  let socketPath: String
  let stderrPath: String
  let process = Process()
  private var stopped = false

  /// Starts the daemon.  `socketPath` defaults to `<fresh dir>/d.sock`; with
  /// `waitForSocket`, returns once the socket accepts (or throws after 10 s or if the
  /// process exits first).
  init(
    arguments: [String] = DaemonProcess.defaultArguments, socketPath: String? = nil, directory: String? = nil,
    waitForSocket: Bool = true
  ) throws {
    self.directory = try directory ?? DaemonProcess.makeTemporaryDirectory()
    self.socketPath = socketPath ?? self.directory + "/d.sock"
    stderrPath = self.directory + "/stderr-\(UUID().uuidString.prefix(8)).log"
    try Data().write(to: URL(fileURLWithPath: stderrPath))
    process.executableURL = URL(fileURLWithPath: try DaemonProcess.binary())
    process.arguments = ["--socket", self.socketPath] + arguments
    process.standardError = FileHandle(forWritingAtPath: stderrPath)
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    if waitForSocket { try waitUntilAccepting() }
  }

  deinit { stop() }

  /// A fresh, short directory under /tmp (Unix socket paths are limited to 108 bytes).
  static func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/une2e-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw HarnessError("mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
  }

  /// `uncenterd` next to the test bundle (walking up from the xctest path), else
  /// `.build/debug/uncenterd` under the package root.
  static func binary() throws -> String {
    let fm = FileManager.default
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<6 {
      let candidate = dir.appendingPathComponent("uncenterd").path
      if fm.isExecutableFile(atPath: candidate) { return candidate }
      let debug = dir.appendingPathComponent(".build/debug/uncenterd").path
      if fm.isExecutableFile(atPath: debug) { return debug }
      dir = dir.deletingLastPathComponent()
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let fallback = root.appendingPathComponent(".build/debug/uncenterd").path
    guard fm.isExecutableFile(atPath: fallback) else { throw HarnessError("uncenterd not found (build it first)") }
    return fallback
  }

  func waitUntilAccepting(timeout: Double = 10) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if let s = try? RawSocket(path: socketPath) {
        s.close()
        return
      }
      guard process.isRunning else {
        throw HarnessError("uncenterd exited with \(process.terminationStatus) before accepting: \(stderr)")
      }
      usleep(20_000)
    }
    throw HarnessError("uncenterd did not accept on \(socketPath) within \(timeout) s: \(stderr)")
  }

  var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  /// The log once it contains every one of `texts` (or as it is after `timeout`): the
  /// daemon's log lines are written by a thread of their own, a moment after the event.
  func log(containing texts: String..., timeout: Double = 10) -> String {
    DaemonProcess.poll(timeout: timeout) { self.stderr } until: { log in texts.allSatisfy { log.contains($0) } }
  }

  static func poll(timeout: Double, _ read: () -> String, until done: (String) -> Bool) -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var text = read()
    while !done(text), Date() < deadline {
      usleep(10_000)
      text = read()
    }
    return text
  }

  func connect() throws -> RPCConnection { try RPCConnection(path: socketPath) }

  func raw() throws -> RawSocket { try RawSocket(path: socketPath) }

  /// Waits for the process to exit; false if it is still running after `timeout`.
  @discardableResult
  func waitForExit(timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() >= deadline { return false }
      usleep(10_000)
    }
    // Let Foundation reap the child and record the status.
    process.waitUntilExit()
    return true
  }

  /// Sends `signal` and waits (SIGKILL after 5 s); returns the exit status, or nil when
  /// it had to be killed or died of a signal.
  @discardableResult
  func stop(signal: Int32 = SIGTERM) -> Int32? {
    guard !stopped else { return exitStatus }
    stopped = true
    guard process.isRunning else { return exitStatus }
    kill(process.processIdentifier, signal)
    if !waitForExit(timeout: 5) {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    return exitStatus
  }

  var exitStatus: Int32? {
    guard !process.isRunning, process.terminationReason == .exit else { return nil }
    return process.terminationStatus
  }
}

struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A bare socket to the daemon for byte-level tests: any framing, partial writes,
/// reads of exactly what arrived, closing without reading.
final class RawSocket {
  let fd: Int32
  private(set) var buffer: [UInt8] = []
  private var closed = false

  init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
    var addr = RawSocket.address(path)
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard rc == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(fd)
      throw HarnessError("connect \(path): \(reason)")
    }
  }

  deinit { close() }

  static func address(_ path: String) -> sockaddr_un {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: bytes.prefix(raw.count - 1))
      raw[min(bytes.count, raw.count - 1)] = 0
    }
    return addr
  }

  func close() {
    guard !closed else { return }
    closed = true
    Glibc.close(fd)
  }

  func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 {
        if errno == EINTR { continue }
        throw HarnessError("send: \(String(cString: strerror(errno)))")
      }
      offset += n
    }
  }

  func send(_ text: String) throws { try send(Array(text.utf8)) }

  /// Reads what arrives within `timeout` into the buffer; false on timeout or EOF.
  @discardableResult
  func fill(timeout: Double) -> Bool {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let rc = poll(&pfd, 1, Int32(max(1, timeout * 1000)))
    guard rc > 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { return false }
    buffer += chunk[..<n]
    return true
  }

  /// Reads until at least `count` bytes are buffered, EOF, or `timeout`; takes them all.
  func read(atLeast count: Int, timeout: Double = 10) -> [UInt8] {
    let deadline = Date().addingTimeInterval(timeout)
    while buffer.count < count, deadline.timeIntervalSinceNow > 0 {
      if !fill(timeout: deadline.timeIntervalSinceNow) { break }
    }
    defer { buffer.removeAll() }
    return buffer
  }

  /// The next line without its newline, or nil on timeout/EOF.
  func readLine(timeout: Double = 10) -> [UInt8]? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let nl = buffer.firstIndex(of: 0x0A) {
        let line = Array(buffer[..<nl])
        buffer.removeSubrange(...nl)
        return line
      }
      guard deadline.timeIntervalSinceNow > 0, fill(timeout: deadline.timeIntervalSinceNow) else { return nil }
    }
  }

  func readLineText(timeout: Double = 10) -> String? { readLine(timeout: timeout).map { String(decoding: $0, as: UTF8.self) } }

  /// One `Content-Length` framed message: (raw header block, body), or nil on timeout.
  func readContentLengthMessage(timeout: Double = 10) -> (header: String, body: [UInt8])? {
    let deadline = Date().addingTimeInterval(timeout)
    let separator: [UInt8] = [13, 10, 13, 10]
    while true {
      if let end = buffer.firstRange(of: separator) {
        let header = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        guard let length = header.split(separator: "\r\n").compactMap({ line -> Int? in
          let parts = line.split(separator: ":", maxSplits: 1)
          guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
          return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }).first else { return nil }
        if buffer.count - end.upperBound >= length {
          let body = Array(buffer[end.upperBound..<end.upperBound + length])
          buffer.removeSubrange(..<(end.upperBound + length))
          return (header, body)
        }
      }
      guard deadline.timeIntervalSinceNow > 0, fill(timeout: deadline.timeIntervalSinceNow) else { return nil }
    }
  }

  /// True once the daemon closes the connection within `timeout` (data read meanwhile is kept).
  func isClosedByPeer(timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while deadline.timeIntervalSinceNow > 0 {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&pfd, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { return false }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { return true }
      buffer += chunk[..<n]
    }
    return false
  }
}
