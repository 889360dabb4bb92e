import UNModel
import XCTest

/// With the real clock, triggers missed while the daemon was down fire once at start-up,
/// marked late; a repeating one then moves to its next future slot (proto-docs/README.md,
/// "Durable state").
final class CatchUpTests: XCTestCase {
  func testMissedOneShotFiresOnceMarkedLate() throws {
    let (center, clock) = makeCenter()
    _ = try center.schedule(app: "a", request("x", content(), interval(10)))
    clock.set(startPlus(605))
    let firings = center.fireDue(upTo: clock.now, late: true)
    XCTAssertEqual(firings.map(\.identifier), ["x"])
    XCTAssertEqual(firings.map(\.date), [startPlus(10)])
    XCTAssertEqual(firings.map(\.app), ["a"])
    XCTAssertEqual(center.app("a").delivered["x"]?.late, true)
    XCTAssertNil(center.app("a").pending["x"])
    XCTAssertEqual(clock.now, startPlus(605), "catch-up does not move the clock")
    XCTAssertEqual(center.fireDue(upTo: clock.now, late: true).count, 0)
  }

  func testMissedRepeatingFiresOnceAndMovesToItsNextFutureSlot() throws {
    let (center, clock) = makeCenter()
    _ = try center.schedule(app: "a", request("r", content(), interval(60, repeats: true)))
    clock.set(startPlus(605))
    let firings = center.fireDue(upTo: clock.now, late: true)
    XCTAssertEqual(firings.count, 1)
    XCTAssertEqual(firings.first?.identifier, "r")
    XCTAssertEqual(center.app("a").pending["r"]?.nextDate, startPlus(660))
    XCTAssertEqual(center.app("a").delivered["r"]?.late, true)
    let fired = events(center.takeEffects()).filter { $0.kind == .fired }
    XCTAssertEqual(fired.count, 1)
    XCTAssertEqual(fired.first?["late"], .bool(true))
    // Then it runs on time again.
    clock.set(startPlus(660))
    let next = center.fireDue(upTo: clock.now)
    XCTAssertEqual(next.map(\.identifier), ["r"])
    XCTAssertEqual(next.map(\.date), [startPlus(660)])
    XCTAssertEqual(center.app("a").delivered["r"]?.late, false)
    XCTAssertEqual(center.app("a").pending["r"]?.nextDate, startPlus(720))
  }

  func testMissedRepeatingCalendarFiresOnce() throws {
    let (center, clock) = makeCenter()
    _ = try center.schedule(app: "a", request("d", content(), try utcCalendar(.init(hour: 9), repeats: true)))
    clock.set(instant("2026-01-05T12:00:00Z"))
    XCTAssertEqual(center.fireDue(upTo: clock.now, late: true).count, 1)
    XCTAssertEqual(center.app("a").pending["d"]?.nextDate.rfc3339, "2026-01-06T09:00:00.000Z")
  }

  func testWithoutLateEverySlotFires() throws {
    let (center, _) = makeCenter()
    _ = try center.schedule(app: "a", request("r", content(), interval(60, repeats: true)))
    let firings = center.fireDue(upTo: startPlus(605))
    XCTAssertEqual(firings.map(\.date), (1...10).map { startPlus(Int64($0) * 60) })
    XCTAssertEqual(center.app("a").delivered["r"]?.late, false)
  }

  func testCatchUpAcrossAppsIsInDateOrder() throws {
    let (center, clock) = makeCenter()
    _ = try center.schedule(app: "b", request("b1", content(), interval(20)))
    _ = try center.schedule(app: "a", request("a1", content(), interval(30)))
    _ = try center.schedule(app: "a", request("a0", content(), interval(10)))
    _ = try center.schedule(app: "a", request("future", content(), interval(1000)))
    clock.set(startPlus(100))
    XCTAssertEqual(center.fireDue(upTo: clock.now, late: true).map(\.identifier), ["a0", "b1", "a1"])
    XCTAssertNotNil(center.app("a").pending["future"])
  }
}
