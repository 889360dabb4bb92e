import Foundation
import Synchronization
import UVLoop
import XCTest

final class LoopWakeupTests: LoopTestCase {
  /// Wakes from another thread reach the loop thread; coalesced wakes run the callback
  /// at least once and never more often than they were sent.
  func testWakesFromAnotherThreadRunTheCallbackOnTheLoop() throws {
    let sent = 50
    let delivered = SharedCount()
    var calls = 0
    var seenAll = false
    var wakeup: LoopWakeup!
    wakeup = try LoopWakeup(loop: loop) { [loop] in
      loop!.assertOnLoopThread()
      calls += 1
      // The worker counts before each wake, so once the last count is visible the
      // wake that follows it may already be coalesced into this call.
      if delivered.value == sent {
        seenAll = true
        wakeup.close()
      }
    }
    let waker = wakeup.waker
    let worker = Thread {
      for _ in 0..<sent {
        delivered.increment()
        waker.wake()
      }
    }
    worker.start()
    try runLoop()
    XCTAssertTrue(seenAll)
    XCTAssertGreaterThanOrEqual(calls, 1)
    XCTAssertLessThanOrEqual(calls, sent)
    XCTAssertTrue(wakeup.isClosed)
    assertCleanShutdown()
  }

  /// A wake after close does nothing: no callback, no crash, and the loop still closes.
  func testWakeAfterCloseIsIgnored() throws {
    var calls = 0
    let wakeup = try LoopWakeup(loop: loop) { calls += 1 }
    let waker = wakeup.waker
    wakeup.close()
    waker.wake()
    try runLoop()
    waker.wake()
    XCTAssertEqual(calls, 0)
    XCTAssertTrue(wakeup.isClosed)
    assertCleanShutdown()
  }

  /// An open wakeup keeps the loop alive until it is closed, like any active handle.
  func testAnOpenWakeupKeepsTheLoopRunning() throws {
    var calls = 0
    let wakeup = try LoopWakeup(loop: loop) { calls += 1 }
    let timer = try LoopTimer(loop: loop)
    try timer.start(afterMilliseconds: 5) {
      timer.close()
      wakeup.waker.wake()
    }
    var closedAfterCall = false
    let closer = try LoopCheck(loop: loop)
    try closer.start {
      if calls > 0 {
        closedAfterCall = true
        wakeup.close()
        closer.close()
      }
    }
    try runLoop()
    XCTAssertEqual(calls, 1)
    XCTAssertTrue(closedAfterCall)
    assertCleanShutdown()
  }
}

/// A counter two threads share (a `Mutex` cannot be captured by an escaping closure).
private final class SharedCount: Sendable {
  private let count = Mutex(0)
  var value: Int { count.withLock { $0 } }
  func increment() { count.withLock { $0 += 1 } }
}
