import Foundation
import XCTest

/// Headless Chromium (Debian's `chromium`) for looking at the HTML report the way a
/// person's browser would.
struct Chromium {
  let path: String

  /// The installed browser, or a skip that says how to get it.
  static func find() throws -> Chromium {
    let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
    for dir in dirs {
      for name in ["chromium", "chromium-browser"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name)
      {
        return Chromium(path: dir + "/" + name)
      }
    }
    throw XCTSkip("chromium is not installed (Debian package chromium, listed in the Makefile's TEST_PACKAGES)")
  }

  struct Output {
    var stdout: String
    var stderr: String
    var status: Int32
    /// The page's console messages (Chromium logs them as `INFO:CONSOLE` with
    /// `--enable-logging=stderr`): errors, uncaught exceptions, failed loads.
    var console: [String] { stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init) }
  }

  /// Runs the browser on `url` with `arguments` (`--dump-dom`, `--screenshot=...`) and
  /// its console logged; no sandbox (tests run as root in CI), no GPU, no network
  /// access needed (the report is self-contained).
  func run(_ url: URL, _ arguments: [String], scratch: String) throws -> Output {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments =
      [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
        "--user-data-dir=\(scratch)/chromium-profile", "--enable-logging=stderr", "--v=0",
      ] + arguments + [url.absoluteString]
    let out = scratch + "/chromium.out"
    let err = scratch + "/chromium.err"
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    p.standardOutput = FileHandle(forWritingAtPath: out)
    p.standardError = FileHandle(forWritingAtPath: err)
    p.currentDirectoryURL = URL(fileURLWithPath: scratch)
    try p.run()
    p.waitUntilExit()
    return Output(
      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "", status: p.terminationStatus)
  }
}
