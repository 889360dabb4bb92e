import Glibc
import UVLoop
import XCTest

final class SignalWatcherTests: LoopTestCase {
  func testCatchesRaisedSignal() throws {
    let watcher = try SignalWatcher(loop: loop)
    var caught: [Int32] = []
    try watcher.start(signal: SIGUSR1) { signal in
      caught.append(signal)
      watcher.close()
    }
    XCTAssertEqual(raise(SIGUSR1), 0)
    try runLoop()
    XCTAssertEqual(caught, [SIGUSR1])
    assertCleanShutdown()
  }
}
