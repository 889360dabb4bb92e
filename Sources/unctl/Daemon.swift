import Foundation
import UNCenterClient

/// A private `uncenterd` for one scenario: manual clock, socket in a temporary directory.
final class Daemon {
  let process = Process()
  let directory: String
  let socketPath: String

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
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    do {
      try process.run()
    } catch {
      throw ScenarioError("cannot start \(exe): \(error)")
    }
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if (try? RPCConnection(path: socketPath)) != nil { return }
      guard process.isRunning else { throw ScenarioError("uncenterd exited with status \(process.terminationStatus)") }
      usleep(10_000)
    }
    stop()
    throw ScenarioError("uncenterd did not accept connections on \(socketPath) within 10 s")
  }

  func stop() {
    if process.isRunning {
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }
}

struct ScenarioError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
