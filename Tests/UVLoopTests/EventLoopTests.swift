import Glibc
import UVLoop
import XCTest

final class EventLoopTests: LoopTestCase {
  func testEmptyLoopRunsAndClosesCleanly() {
    XCTAssertFalse(loop.isAlive)
    XCTAssertFalse(loop.run())
    assertCleanShutdown()
  }

  func testClocksAdvance() {
    let before = loop.hrtimeNanoseconds
    let nowBefore = loop.now
    usleep(2_000)
    loop.updateTime()
    XCTAssertGreaterThan(loop.hrtimeNanoseconds, before)
    XCTAssertGreaterThanOrEqual(loop.now, nowBefore)
    assertCleanShutdown()
  }

  func testCloseIsBusyWhileAHandleIsOpen() throws {
    let timer = try LoopTimer(loop: loop)
    XCTAssertThrowsError(try loop.close()) { error in
      XCTAssertEqual((error as? UVError)?.name, "EBUSY")
    }
    var closed = false
    timer.close { closed = true }
    loop.run()
    XCTAssertTrue(closed)
    XCTAssertTrue(timer.isClosed)
    assertCleanShutdown()
  }

  func testCloseAllHandlesGoesThroughWrappers() throws {
    let timer = try LoopTimer(loop: loop)
    try timer.start(afterMilliseconds: 60_000) { XCTFail("timer should not fire") }
    let check = try LoopCheck(loop: loop)
    try check.start {}
    var closeCallbacks = 0
    timer.close { closeCallbacks += 1 }
    timer.close { closeCallbacks += 1 }  // idempotent: adds a callback, closes once
    loop.closeAllHandles()
    XCTAssertTrue(check.isClosing)
    loop.run()
    XCTAssertEqual(closeCallbacks, 2)
    XCTAssertTrue(check.isClosed)
    var lateCallback = false
    check.close { lateCallback = true }  // after the fact: runs immediately
    XCTAssertTrue(lateCallback)
    assertCleanShutdown()
  }

  func testHandlesAreReleasedAfterClose() throws {
    weak var weakTimer: LoopTimer?
    do {
      let timer = try LoopTimer(loop: loop)
      weakTimer = timer
      try timer.start(afterMilliseconds: 1) { timer.close() }  // cycle broken by close
    }
    XCTAssertNotNil(weakTimer, "the open handle keeps itself alive")
    loop.run()
    XCTAssertNil(weakTimer, "released by the close callback")
    assertCleanShutdown()
  }

  func testStopReturnsFromRun() throws {
    let timer = try LoopTimer(loop: loop)
    var ticks = 0
    try timer.start(afterMilliseconds: 1, repeatMilliseconds: 1) { [loop] in
      ticks += 1
      loop?.stop()
    }
    XCTAssertTrue(loop.run(), "stopped with the timer still active")
    XCTAssertEqual(ticks, 1)
    assertCleanShutdown()
  }

  func testCheckRunsOncePerIteration() throws {
    let check = try LoopCheck(loop: loop)
    let timer = try LoopTimer(loop: loop)
    var iterations = 0
    var ticks = 0
    try check.start { iterations += 1 }
    try timer.start(afterMilliseconds: 1, repeatMilliseconds: 1) {
      ticks += 1
      if ticks == 3 {
        timer.close()
        check.close()
      }
    }
    try runLoop()
    XCTAssertEqual(ticks, 3)
    XCTAssertGreaterThanOrEqual(iterations, 2)
    assertCleanShutdown()
  }
}
