import Glibc
import UVLoop
import XCTest

final class BusyPollTests: LoopTestCase {
  /// Counts loop iterations (a check handle runs once per iteration) while a timer keeps
  /// the loop going for `milliseconds`.
  private func iterations(for milliseconds: UInt64, _ start: () -> Void) throws -> Int {
    let check = try LoopCheck(loop: loop)
    var count = 0
    try check.start { count += 1 }
    let end = try LoopTimer(loop: loop)
    try end.start(afterMilliseconds: milliseconds) {
      end.close()
      check.close()
    }
    start()
    try runLoop()
    return count
  }

  /// After `worked`, the loop goes round without sleeping for the window (hundreds of
  /// iterations with nothing to do), then sleeps again until the timer.
  func testTheLoopPollsAwakeForTheWindowThenSleeps() throws {
    let poll = try BusyPoll(loop: loop, windowNanoseconds: 20_000_000)
    let awake = try iterations(for: 60) { poll.worked() }
    XCTAssertGreaterThan(awake, 100, "iterations while polling awake")
    // Past the window it rests: a second stretch with no work sleeps through.
    let asleep = try iterations(for: 60) {}
    XCTAssertLessThan(asleep, 10, "iterations once the window has passed")
    poll.close()
    try runLoop()
    assertCleanShutdown()
  }

  /// `rest` ends the window at once; an idle poll does not keep `run()` going.
  func testRestSleepsAtOnceAndThePollKeepsNoLoopAlive() throws {
    let poll = try BusyPoll(loop: loop, windowNanoseconds: 10_000_000_000)
    let iterationsAfterRest = try iterations(for: 40) {
      poll.worked()
      poll.rest()
    }
    XCTAssertLessThan(iterationsAfterRest, 10)
    poll.worked()
    // Only the (unreferenced) poll is active: run returns instead of spinning for 10 s.
    let started = loop.hrtimeNanoseconds
    loop.run()
    XCTAssertLessThan(loop.hrtimeNanoseconds - started, 5_000_000_000)
    poll.close()
    try runLoop()
    assertCleanShutdown()
  }
}
