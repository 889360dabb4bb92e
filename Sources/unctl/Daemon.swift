import Foundation
import UNCenterClient

/// A private `uncenterd` for one scenario: manual clock, socket and log in a temporary
/// directory.  The log (warnings and errors, and whatever the runtime prints when the
/// process crashes) is kept so a scenario whose daemon died can show its last lines.
final class Daemon {
  let process = Process()
  let directory: String
  let socketPath: String
  var logPath: String { directory + "/uncenterd.log" }

  /// The daemon binary: `$UNCENTERD`, else `uncenterd` next to this `unctl`, else `$PATH`.
  static func executable() -> String {
    if let path = ProcessInfo.processInfo.environment["UNCENTERD"], !path.isEmpty { return path }
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let sibling = me.deletingLastPathComponent().appendingPathComponent("uncenterd").path
    if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
    return "uncenterd"
  }

  init(clock: String, extraArguments: [String] = []) throws {
    var template = Array((NSTemporaryDirectory() + "unctl-run.XXXXXX").utf8CString)
    guard let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw ScenarioError("cannot create a temporary directory")
    }
    directory = String(cString: dir)
    socketPath = directory + "/uncenterd.sock"
    let exe = Self.executable()
    process.executableURL = URL(fileURLWithPath: exe.contains("/") ? exe : "/usr/bin/env")
    let args = ["--socket", socketPath, "--clock", "manual=\(clock)", "--log-level", "warn"] + extraArguments
    process.arguments = exe.contains("/") ? args : [exe] + args
    _ = FileManager.default.createFile(atPath: directory + "/uncenterd.log", contents: nil)
    process.standardError = FileHandle(forWritingAtPath: directory + "/uncenterd.log")
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    do {
      try process.run()
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw ScenarioError("cannot start \(exe): \(error)")
    }
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if (try? RPCConnection(path: socketPath)) != nil { return }
      guard process.isRunning else {
        let why = ScenarioError("uncenterd \(exitDescription)" + logTail())
        stop()
        throw why
      }
      usleep(5_000)
    }
    stop()
    throw ScenarioError("uncenterd did not accept connections on \(socketPath) within 10 s")
  }

  /// "exited with status N" or "was killed by signal N" (only once it has ended).
  var exitDescription: String {
    process.terminationReason == .uncaughtSignal
      ? "was killed by signal \(process.terminationStatus)" : "exited with status \(process.terminationStatus)"
  }

  /// Whether the daemon ended within `seconds` (a crash is seen on the socket a moment
  /// before the process is reaped).
  func hasEnded(within seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning {
      if Date() >= deadline { return false }
      usleep(5_000)
    }
    return true
  }

  /// The last `lines` lines of the daemon's log, as an indented block after a colon, or
  /// "" when it wrote nothing.
  func logTail(lines: Int = 20) -> String {
    guard let data = FileManager.default.contents(atPath: logPath), !data.isEmpty else {
      return " (its log is empty)"
    }
    let all = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let tail = all.suffix(lines + 1).joined(separator: "\n").trimmingCharacters(in: .newlines)
    return "; the last lines of its log:\n" + tail.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
  }

  /// SIGTERM, then SIGKILL if it has not ended within 2 s (a stopped or wedged daemon
  /// never handles SIGTERM); removes the temporary directory.
  func stop() {
    if process.isRunning {
      kill(process.processIdentifier, SIGTERM)
      if !hasEnded(within: 2) {
        kill(process.processIdentifier, SIGKILL)
      }
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }
}

struct ScenarioError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
