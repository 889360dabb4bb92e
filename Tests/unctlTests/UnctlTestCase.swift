import Foundation
import JSONRPC
import TestSupport
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

/// The built executables, as file URLs.
enum Products {
  static var unctl: URL { get throws { try BuildProducts.url(of: "unctl") } }
  static var uncenterd: URL { get throws { try BuildProducts.url(of: "uncenterd") } }
}

/// Runs the built `unctl` against a fresh daemon per test.
class UnctlTestCase: XCTestCase {
  var daemon: DaemonProcess!
  var socket: String { daemon.socketPath }
  /// A scratch directory removed with the daemon.
  var scratch: String { daemon.directory }

  override func setUpWithError() throws {
    daemon = try DaemonProcess(arguments: DaemonProcess.defaultArguments + ["--log-level", "warn"])
  }

  override func tearDown() {
    daemon?.stop()
    if let daemon { try? FileManager.default.removeItem(atPath: daemon.directory) }
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
    p.executableURL = try Products.unctl
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
