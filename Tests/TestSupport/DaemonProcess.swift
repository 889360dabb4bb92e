import Foundation
import UNCenterClient

/// The real `uncenterd` binary, started as a child process on a socket in a fresh
/// temporary directory, with its stderr captured to a file.  Every test target that
/// needs a daemon starts it with this one type.
public final class DaemonProcess {
  public static let defaultArguments = ["--clock", "manual=2026-01-01T08:00:00Z"]

  public let directory: String
  public let socketPath: String
  public let stderrPath: String
  public let process = Process()
  private var stopped = false

  /// Starts the daemon.  `socketPath` defaults to `<fresh dir>/d.sock`; with
  /// `waitForSocket`, returns once the socket accepts (or throws after 10 s or if the
  /// process exits first).
  public init(
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
  public static func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/une2e-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw HarnessError("mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
  }

  /// The `uncenterd` built beside the tests.
  public static func binary() throws -> String { try BuildProducts.path(of: "uncenterd") }

  public func waitUntilAccepting(timeout: Double = 15) throws {
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

  public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  /// The log once it contains every one of `texts` (or as it is after `timeout`): the
  /// daemon's log lines are written by a thread of their own, a moment after the event.
  public func log(containing texts: String..., timeout: Double = 10) -> String {
    DaemonProcess.poll(timeout: timeout) {
      self.stderr
    } until: { log in
      texts.allSatisfy { log.contains($0) }
    }
  }

  public static func poll(timeout: Double, _ read: () -> String, until done: (String) -> Bool) -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var text = read()
    while !done(text), Date() < deadline {
      usleep(10_000)
      text = read()
    }
    return text
  }

  public func connect() throws -> RPCConnection { try RPCConnection(path: socketPath) }

  public func raw() throws -> RawSocket { try RawSocket(path: socketPath) }

  /// Waits for the process to exit; false if it is still running after `timeout`.
  @discardableResult
  public func waitForExit(timeout: Double) -> Bool {
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
  public func stop(signal: Int32 = SIGTERM) -> Int32? {
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

  public var exitStatus: Int32? {
    guard !process.isRunning, process.terminationReason == .exit else { return nil }
    return process.terminationStatus
  }
}
