import Glibc
import UVLoop
import XCTest

/// Shared scaffolding: a fresh loop per test, a private socket directory, a watchdog so
/// a broken test fails instead of hanging, and the clean-shutdown check every test ends
/// with (all handles closed, then `uv_loop_close` must succeed).
class LoopTestCase: XCTestCase {
  var loop: EventLoop!
  var directory: String!

  override func setUpWithError() throws {
    loop = try EventLoop()
    var template = Array("/tmp/uvloop-XXXXXX".utf8CString)
    directory = template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
    XCTAssertNotNil(directory, "mkdtemp failed")
  }

  override func tearDownWithError() throws {
    if let loop, !loop.isClosed {
      loop.closeAllHandles()
      loop.run()
      XCTAssertNoThrow(try loop.close())
    }
    loop = nil
    if let directory {
      try? FileManager.default.removeItem(atPath: directory)
    }
  }

  /// A socket path inside this test's private directory.
  func socketPath(_ name: String = "test.sock") -> String {
    directory + "/" + name
  }

  /// Runs the loop until every handle the test opened is closed. A watchdog timer that
  /// does not keep the loop alive fails the test and closes everything after `timeout`.
  /// The timeout is generous because the suite also runs under valgrind.
  func runLoop(timeoutMilliseconds: UInt64 = 120_000, file: StaticString = #filePath, line: UInt = #line) throws {
    // Timers count from the loop's cached clock, which is stale after slow test setup.
    loop.updateTime()
    let watchdog = try LoopTimer(loop: loop)
    watchdog.keepsLoopAlive = false
    try watchdog.start(afterMilliseconds: timeoutMilliseconds) { [loop] in
      XCTFail("loop did not finish in time", file: file, line: line)
      loop?.closeAllHandles()
    }
    loop.run()
    watchdog.close()
    loop.run()
  }

  /// Ends a test the way every test must: close all handles, deliver their close
  /// callbacks, and require that the loop itself closes cleanly.
  func assertCleanShutdown(file: StaticString = #filePath, line: UInt = #line) {
    loop.closeAllHandles()
    loop.run()
    XCTAssertNoThrow(try loop.close(), file: file, line: line)
    XCTAssertTrue(loop.isClosed, file: file, line: line)
  }

  /// A listening server at `path` whose accepted connections are handed to `handler`.
  func makeServer(
    path: String, mode: mode_t = 0o600, _ handler: @escaping (StreamConnection) -> Void
  ) throws -> PipeServer {
    let server = try PipeServer(loop: loop)
    try server.bind(path: path, mode: mode)
    try server.listen(backlog: 16) { server in
      do {
        handler(try server.accept())
      } catch {
        XCTFail("accept failed: \(error)")
      }
    }
    return server
  }

  /// Connects a client and hands it over, failing the test on error.
  func connectClient(path: String, _ handler: @escaping (StreamConnection) -> Void) {
    StreamConnection.connect(loop: loop, path: path) { result in
      switch result {
      case .success(let client): handler(client)
      case .failure(let error): XCTFail("connect failed: \(error)")
      }
    }
  }
}
