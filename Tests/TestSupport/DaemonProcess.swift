import Foundation
import UNCenterClient

/// The real `uncenterd` binary, started as a child process on a socket in a fresh
/// temporary directory, with its stderr (its log) captured to a file.  Every Swift test
/// target that needs a daemon starts it with this one type: plainly, under
/// `systemd-socket-activate`, or as another user (`Launch`), with the environment a
/// service manager would give it.
public final class DaemonProcess {
  public static let defaultArguments = ["--clock", "manual=2026-01-01T08:00:00Z"]

  /// The tool that listens on a socket and hands it to the daemon it starts, as systemd
  /// does for a socket unit.
  public static let socketActivator = "/usr/bin/systemd-socket-activate"

  /// Variables that would make the daemon think it runs under systemd: never inherited
  /// from the test process, only given.
  static let serviceVariables = [
    "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "JOURNAL_STREAM",
  ]

  /// How the daemon is started.
  public enum Launch: Sendable {
    /// `uncenterd --socket SOCKET ARGUMENTS`.
    case direct
    /// `systemd-socket-activate -l SOCKET uncenterd ARGUMENTS`: the activator listens and
    /// starts the daemon, with the socket inherited, on the first connection.
    case socketActivated
    /// `setpriv --reuid=UID --regid=UID --clear-groups uncenterd --socket SOCKET ARGUMENTS`:
    /// a daemon without root's rights (needs root to start).
    case asUser(uid_t)
  }

  public let directory: String
  public let socketPath: String
  public let stderrPath: String
  public let process = Process()
  /// What started this daemon, for `restart()`.
  let arguments: [String]
  let environment: [String: String]
  let launch: Launch
  var stopped = false

  /// Starts the daemon.  `socketPath` defaults to `<fresh dir>/d.sock`, `stderrPath` to a
  /// new file in the directory; `environment` is added to the test process's own (less the
  /// systemd variables).  With `waitForSocket`, returns once the socket accepts (or throws
  /// after 15 s or if the process exits first).
  public init(
    arguments: [String] = DaemonProcess.defaultArguments, socketPath: String? = nil, directory: String? = nil,
    environment: [String: String] = [:], launch: Launch = .direct, stderrPath: String? = nil,
    waitForSocket: Bool = true
  ) throws {
    self.directory = try directory ?? DaemonProcess.makeTemporaryDirectory()
    self.socketPath = socketPath ?? self.directory + "/d.sock"
    self.stderrPath = stderrPath ?? self.directory + "/stderr-\(UUID().uuidString.prefix(8)).log"
    self.arguments = arguments
    self.environment = environment
    self.launch = launch
    // A given file is kept as it is (a test may have named it by device and inode).
    if !FileManager.default.fileExists(atPath: self.stderrPath) {
      try Data().write(to: URL(fileURLWithPath: self.stderrPath))
    }
    let command = try Self.command(launch, socketPath: self.socketPath, arguments: arguments)
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    var env = ProcessInfo.processInfo.environment
    for key in Self.serviceVariables { env[key] = nil }
    process.environment = env.merging(environment) { $1 }
    process.standardError = FileHandle(forWritingAtPath: self.stderrPath)
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    if waitForSocket { try waitUntilAccepting() }
  }

  deinit { stop() }

  /// The command line that starts the daemon the way `launch` says.
  static func command(_ launch: Launch, socketPath: String, arguments: [String]) throws -> [String] {
    let daemon = try binary()
    switch launch {
    case .direct:
      return [daemon, "--socket", socketPath] + arguments
    case .socketActivated:
      return [socketActivator, "-l", socketPath, daemon] + arguments
    case .asUser(let uid):
      return ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", daemon, "--socket", socketPath]
        + arguments
    }
  }

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

  /// The daemon's log as written so far.
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
}
