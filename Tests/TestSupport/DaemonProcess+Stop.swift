import Foundation

extension DaemonProcess {
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

  /// Sends `signal` (unless it was stopped before) and, with `waitForExit`, waits for the
  /// exit status: nil when it had to be killed after 10 s, died of a signal, or was not
  /// waited for.
  @discardableResult
  public func stop(signal: Int32 = SIGTERM, waitForExit wait: Bool = true) -> Int32? {
    if !stopped, process.isRunning { kill(process.processIdentifier, signal) }
    stopped = true
    guard wait else { return nil }
    if !waitForExit(timeout: 10) {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    return exitStatus
  }

  /// `kill -9`: the daemon finishes nothing, as in a crash or a power cut.  True once it is
  /// gone (within `timeout`).
  public func kill9(timeout: Double = 10) -> Bool {
    stopped = true
    kill(process.processIdentifier, SIGKILL)
    return waitForExit(timeout: timeout)
  }

  /// A new daemon started as this one was (arguments, socket, directory, environment,
  /// launch), once this one has stopped (SIGTERM if it still runs); its log is a new file.
  public func restart(waitForSocket: Bool = true) throws -> DaemonProcess {
    stop()
    return try DaemonProcess(
      arguments: arguments, socketPath: socketPath, directory: directory, environment: environment, launch: launch,
      waitForSocket: waitForSocket)
  }

  /// The exit status once it exited normally; nil while it runs or if a signal ended it.
  public var exitStatus: Int32? {
    guard !process.isRunning, process.terminationReason == .exit else { return nil }
    return process.terminationStatus
  }
}
