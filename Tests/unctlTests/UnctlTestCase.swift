import Foundation
import JSONRPC
import UNCenterClient
import XCTest

/// What one `unctl` run produced.
struct RunResult {
  var status: Int32
  var stdout: String
  var stderr: String

  /// Standard output parsed as one JSON value (fails the test if it is not JSON).
  func json(file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
    let text = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let value = try? parseJSON(text) else {
      XCTFail("stdout is not JSON: \(stdout)", file: file, line: line)
      return .null
    }
    return value
  }
}

func parseJSON(_ text: String) throws -> JSONValue {
  try Array(text.utf8).withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in try JSONParser.parse(b) }
}

/// The build products directory: the one holding both `unctl` and `uncenterd`, found by
/// walking up from the test bundle.
enum Products {
  static let directory: URL = {
    var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL]
    candidates += Bundle.allBundles.map(\.bundleURL)
    for start in candidates {
      var dir = start.standardizedFileURL
      for _ in 0..<8 {
        let fm = FileManager.default
        if fm.isExecutableFile(atPath: dir.appendingPathComponent("unctl").path),
          fm.isExecutableFile(atPath: dir.appendingPathComponent("uncenterd").path)
        {
          return dir
        }
        dir = dir.deletingLastPathComponent()
      }
    }
    return URL(fileURLWithPath: ".build/debug", isDirectory: true)
  }()

  static var unctl: URL { directory.appendingPathComponent("unctl") }
  static var uncenterd: URL { directory.appendingPathComponent("uncenterd") }
}

/// A real uncenterd with a manual clock on a socket in a temporary directory.
final class TestDaemon {
  let process = Process()
  let directory: String
  let socketPath: String

  init() throws {
    directory = NSTemporaryDirectory() + "unctl-tests-" + UUID().uuidString.prefix(8)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    socketPath = directory + "/d.sock"
    process.executableURL = Products.uncenterd
    process.arguments = ["--socket", socketPath, "--clock", "manual=2026-01-01T08:00:00Z", "--log-level", "warn"]
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    let deadline = Date().addingTimeInterval(15)
    while Date() < deadline {
      if (try? RPCConnection(path: socketPath)) != nil { return }
      guard process.isRunning else {
        throw NSError(domain: "unctlTests", code: 2, userInfo: [NSLocalizedDescriptionKey: "uncenterd exited"])
      }
      usleep(20_000)
    }
    stop()
    throw NSError(domain: "unctlTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "uncenterd did not start"])
  }

  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(atPath: directory)
  }
}

/// Runs the built `unctl` against a fresh daemon per test.
class UnctlTestCase: XCTestCase {
  var daemon: TestDaemon!
  var socket: String { daemon.socketPath }
  /// A scratch directory removed with the daemon.
  var scratch: String { daemon.directory }

  override func setUpWithError() throws {
    daemon = try TestDaemon()
  }

  override func tearDown() {
    daemon?.stop()
    daemon = nil
  }

  /// A clean environment: no socket or app variables inherited from the caller.
  static func environment(_ extra: [String: String]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    for key in ["UNCENTER_SOCKET", "UNCENTER_APP", "NO_COLOR", "XDG_RUNTIME_DIR"] { env[key] = nil }
    env.merge(extra) { $1 }
    return env
  }

  /// Starts `unctl ARGS` with its output going to files; the caller waits.
  func start(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> Running {
    let id = UUID().uuidString
    let out = scratchFile("out-\(id)")
    let err = scratchFile("err-\(id)")
    let p = Process()
    p.executableURL = Products.unctl
    p.arguments = arguments
    p.environment = Self.environment(environment)
    p.standardOutput = FileHandle(forWritingAtPath: out)
    p.standardError = FileHandle(forWritingAtPath: err)
    if let stdin {
      let pipe = Pipe()
      p.standardInput = pipe
      try p.run()
      pipe.fileHandleForWriting.write(Data(stdin.utf8))
      try pipe.fileHandleForWriting.close()
    } else {
      p.standardInput = FileHandle(forReadingAtPath: "/dev/null")
      try p.run()
    }
    return Running(process: p, stdoutPath: out, stderrPath: err)
  }

  /// Runs `unctl ARGS` to completion.
  @discardableResult
  func unctl(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> RunResult {
    try start(arguments, environment: environment, stdin: stdin).finish()
  }

  /// `unctl --socket SOCKET ARGS`.
  @discardableResult
  func run(_ arguments: String..., environment: [String: String] = [:], stdin: String? = nil) throws -> RunResult {
    try unctl(["--socket", socket] + arguments, environment: environment, stdin: stdin)
  }

  func scratchFile(_ name: String, contents: String = "") -> String {
    let path = scratch + "/" + name
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(contents.utf8)), "cannot create \(path)")
    return path
  }
}

/// An `unctl` still running.
struct Running {
  var process: Process
  var stdoutPath: String
  var stderrPath: String

  var currentStdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

  func finish() -> RunResult {
    process.waitUntilExit()
    return RunResult(
      status: process.terminationStatus, stdout: currentStdout,
      stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
  }
}
