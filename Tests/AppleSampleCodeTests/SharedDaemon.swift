import Foundation
import JSONRPC
import TestSupport
import UserNotifications

/// One `uncenterd` for this test process, on a temporary socket with a manual clock.
/// `UNCENTER_SOCKET` and `UNCENTER_APP` are set for the process before any sample code
/// runs, so `UNUserNotificationCenter.current()` finds it with no `connect`, as an app
/// started beside the daemon would.
enum SharedDaemon {
  static let app = "com.example.meetings"

  private static let started: Result<String, any Error> = Result {
    let daemon = try DaemonProcess(arguments: ["--clock", "manual=2026-01-05T08:00:00Z"])
    // Kept for the life of the test process (never released, so never stopped by its
    // deinit); the exit handler stops it.
    _ = Unmanaged.passRetained(daemon)
    pid.store(daemon.process.processIdentifier)
    atexit { kill(SharedDaemon.pid.load(), SIGTERM) }
    return daemon.socketPath
  }

  private static let pid = AtomicPID()

  /// The daemon's socket, starting it on first use; sets `UNCENTER_SOCKET` and
  /// `UNCENTER_APP` for the process until `leave()`.
  static func socket() throws -> String {
    let socket = try started.get()
    setenv("UNCENTER_SOCKET", socket, 1)
    setenv("UNCENTER_APP", app, 1)
    return socket
  }

  /// Unsets the variables again, so that other test targets in this process see the
  /// environment they were started with.
  static func leave() {
    unsetenv("UNCENTER_SOCKET")
    unsetenv("UNCENTER_APP")
  }

  /// A `user` connection: the person holding the phone.
  static func user() throws -> RPCConnection {
    let c = try RPCConnection(path: try socket())
    _ = try c.call("hello", .object(["role": .string("user"), "appId": .string(app)])).get()
    return c
  }
}

/// The daemon's pid for the exit handler.
final class AtomicPID: @unchecked Sendable {
  // Safe: written once, before any reader, under the lock; read under the lock.
  private let lock = NSLock()
  private var value: pid_t = 0
  func store(_ v: pid_t) { lock.withLock { value = v } }
  func load() -> pid_t { lock.withLock { value } }
}

/// Runs the main run loop (where the delegate is called) until `condition` holds.
func runMainLoop(until condition: () -> Bool, timeout: TimeInterval = 10) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    guard Date() < deadline else { return false }
    RunLoop.main.run(until: Date().addingTimeInterval(0.01))
  }
  return true
}

/// Runs the main run loop for a while (to see that nothing more happens).
func runMainLoop(for seconds: TimeInterval) {
  RunLoop.main.run(until: Date().addingTimeInterval(seconds))
}
