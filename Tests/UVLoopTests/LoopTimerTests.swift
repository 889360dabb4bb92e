import Glibc
import UVLoop
import XCTest

final class LoopTimerTests: LoopTestCase {
  func testOneShotTimerFires() throws {
    let timer = try LoopTimer(loop: loop)
    var fired = 0
    let started = loop.now
    try timer.start(afterMilliseconds: 20) {
      fired += 1
      timer.close()
    }
    try runLoop()
    XCTAssertEqual(fired, 1)
    // The loop clock never fires early; no upper bound is asserted.
    XCTAssertGreaterThanOrEqual(loop.now - started, 20)
    assertCleanShutdown()
  }

  func testRepeatingTimerStopsWhenTold() throws {
    let timer = try LoopTimer(loop: loop)
    var fired = 0
    try timer.start(afterMilliseconds: 1, repeatMilliseconds: 2) {
      fired += 1
      if fired == 5 { timer.stop() }
    }
    try runLoop()
    XCTAssertEqual(fired, 5)
    XCTAssertFalse(timer.isActive)
    XCTAssertFalse(timer.isClosing)
    timer.close()
    assertCleanShutdown()
  }

  func testRestartReplacesCallback() throws {
    let timer = try LoopTimer(loop: loop)
    var which = ""
    try timer.start(afterMilliseconds: 50_000) { which = "first" }
    try timer.start(afterMilliseconds: 1) {
      which = "second"
      timer.close()
    }
    try runLoop()
    XCTAssertEqual(which, "second")
    assertCleanShutdown()
  }

  func testStartAfterCloseThrows() throws {
    let timer = try LoopTimer(loop: loop)
    timer.close()
    XCTAssertThrowsError(try timer.start(afterMilliseconds: 1) {})
    timer.stop()  // harmless
    assertCleanShutdown()
  }
}
