import Foundation

/// A private `uncenterd` for one scenario: manual clock, socket and log in a temporary
/// directory.  The log (warnings and errors, and whatever the runtime prints when the
/// process crashes) is kept so a scenario whose daemon died can show its last lines.
///
/// Started with `posix_spawn`, not Foundation's `Process`: scenarios start daemons from
/// several threads at once (`-j`), and `Process.run()` on a fresh thread races in
/// CoreFoundation's run-loop creation (seen as SIGILL in `__CFRunLoopCreate`).  The pid
/// is reaped here, so until `stop()` it cannot name another process.
final class Daemon {
  let pid: pid_t
  let directory: String
  let socketPath: String
  var logPath: String { directory + "/uncenterd.log" }
  /// The wait status once reaped.
  private var status: Int32?

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
    let args = [exe, "--socket", socketPath, "--clock", "manual=\(clock)", "--log-level", "warn"] + extraArguments
    do {
      pid = try Self.spawn(exe, args, log: directory + "/uncenterd.log")
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if Self.accepts(socketPath) { return }
      if hasEnded(within: 0) {
        let why = ScenarioError("uncenterd \(exitDescription)" + logTail())
        stop()
        throw why
      }
      usleep(5_000)
    }
    stop()
    throw ScenarioError("uncenterd did not accept connections on \(socketPath) within 10 s")
  }

  /// Whether something accepts connections on `path` (one connect, then close).
  static func accepts(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return false }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    return withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    } == 0
  }

  /// `posix_spawnp` with standard input and output on /dev/null, standard error to
  /// `log`, and no other descriptor of ours (other scenarios' sockets) inherited.
  private static func spawn(_ exe: String, _ args: [String], log: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
    _ = closeFrom?(&actions, 3)
    var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawnp(&pid, exe, &actions, nil, &argv, environ)
    guard rc == 0 else { throw ScenarioError("cannot start \(exe): \(String(cString: strerror(rc)))") }
    return pid
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which the Swift Glibc
  /// module does not export; looked up once, skipped where missing.
  private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(
      symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
  }()

  /// "exited with status N" or "was killed by signal N" (once it has ended).
  var exitDescription: String {
    guard let status else { return "is still running" }
    let signal = status & 0x7f
    return signal != 0 ? "was killed by signal \(signal)" : "exited with status \((status >> 8) & 0xff)"
  }

  /// Whether the daemon ended within `seconds` (reaping it); a crash is seen on the
  /// socket a moment before the process can be reaped.
  func hasEnded(within seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while status == nil {
      var s: Int32 = 0
      let r = waitpid(pid, &s, WNOHANG)
      if r == pid || (r < 0 && errno == ECHILD) {
        status = r == pid ? s : 0
        break
      }
      if Date() >= deadline { return false }
      usleep(2_000)
    }
    return true
  }

  /// The last `lines` lines of the daemon's log, after a colon, indented.
  func logTail(lines: Int = 20) -> String {
    guard let data = FileManager.default.contents(atPath: logPath), !data.isEmpty else {
      return " (its log is empty)"
    }
    let all = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let tail = all.suffix(lines + 1).joined(separator: "\n").trimmingCharacters(in: .newlines)
    return "; the last lines of its log:\n" + tail.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
  }

  /// SIGTERM, then SIGKILL if it has not ended within 2 s (a stopped or wedged daemon
  /// never handles SIGTERM); reaps it and removes the temporary directory.
  func stop() {
    if !hasEnded(within: 0) {
      kill(pid, SIGTERM)
      if !hasEnded(within: 2) {
        kill(pid, SIGKILL)
        _ = hasEnded(within: 3600)
      }
    }
    try? FileManager.default.removeItem(atPath: directory)
  }
}

struct ScenarioError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
