import UNModel
import XCTest

final class CalendarScheduleTests: XCTestCase {
  func testScheduleGivesTheNextTriggerDate() throws {
    let (center, _) = makeCenter()
    let r = try center.schedule(
      app: "a", request("d", content(), try utcCalendar(.init(hour: 9, minute: 30), repeats: true)))
    XCTAssertTrue(r.scheduled)
    XCTAssertEqual(r.nextTriggerDate?.rfc3339, "2026-01-01T09:30:00.000Z")
    XCTAssertEqual(r.warnings, [])
    XCTAssertEqual(center.app("a").pending["d"]?.nextDate.rfc3339, "2026-01-01T09:30:00.000Z")
  }

  func testScheduleInAnotherZone() throws {
    let (center, _) = makeCenter()
    let t = Trigger.calendar(
      try CalendarTrigger(dateMatching: .init(hour: 9), timeZone: "Europe/Warsaw", repeats: false))
    let r = try center.schedule(app: "a", request("w", content(), t))
    XCTAssertEqual(r.nextTriggerDate?.rfc3339, "2026-01-02T08:00:00.000Z", "09:00 in Warsaw is 08:00Z in winter")
  }

  func testRepeatingDailyFiresOncePerDay() throws {
    let (center, clock) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = try center.schedule(app: "a", request("d", content(), try utcCalendar(.init(hour: 9), repeats: true)))
    _ = center.takeEffects()
    let advance = try center.advanceClock(seconds: 3 * 86400)
    let (now, fired) = (advance.now, advance.fired)
    XCTAssertEqual(fired, ["d", "d", "d"])
    XCTAssertEqual(now.rfc3339, "2026-01-04T08:00:00.000Z")
    XCTAssertEqual(clock.now, now)
    let effects = center.takeEffects()
    let firedDates = events(effects).filter { $0.kind == .fired }.map(\.date.rfc3339)
    XCTAssertEqual(firedDates, ["2026-01-01T09:00:00.000Z", "2026-01-02T09:00:00.000Z", "2026-01-03T09:00:00.000Z"])
    let presentedDates: [String] = callbacks(effects).compactMap {
      if case .present(let n, _, _) = $0.1 { return n.date.rfc3339 }
      return nil
    }
    XCTAssertEqual(presentedDates, firedDates)
    XCTAssertEqual(center.app("a").pending["d"]?.nextDate.rfc3339, "2026-01-04T09:00:00.000Z")
    XCTAssertEqual(center.app("a").delivered["d"]?.date.rfc3339, "2026-01-03T09:00:00.000Z")
  }

  func testOneShotCalendarFiresOnceAndLeaves() throws {
    let (center, _) = makeCenter()
    _ = try center.schedule(
      app: "a", request("o", content(), try utcCalendar(.init(month: 1, day: 2, hour: 7), repeats: false)))
    let fired = try center.advanceClock(seconds: 3 * 86400).fired
    XCTAssertEqual(fired, ["o"])
    XCTAssertNil(center.app("a").pending["o"])
    XCTAssertEqual(center.app("a").delivered["o"]?.date.rfc3339, "2026-01-02T07:00:00.000Z")
  }

  func testOneShotInThePastIsNotScheduled() throws {
    let (center, _) = makeCenter()
    let r = try center.schedule(
      app: "a", request("p", content(), try utcCalendar(.init(year: 2025, month: 12, day: 31, hour: 9), repeats: false))
    )
    XCTAssertFalse(r.scheduled)
    XCTAssertNil(r.nextTriggerDate)
    XCTAssertEqual(r.warnings.count, 1)
    XCTAssertTrue(
      r.warnings[0].hasPrefix("not scheduled: the calendar trigger can never fire"), r.warnings.first ?? "")
    XCTAssertEqual(center.app("a").pending.count, 0)
    // The very instant of "now" is not "after now" either.
    let same = try center.schedule(
      app: "a", request("q", content(), try utcCalendar(.init(year: 2026, month: 1, day: 1, hour: 8), repeats: false)))
    XCTAssertFalse(same.scheduled)
    XCTAssertTrue(same.warnings[0].hasPrefix("not scheduled: the calendar trigger can never fire"))
  }

  func testUpcomingDatesForTimeInterval() {
    let repeating = interval(60, repeats: true)
    XCTAssertEqual(
      repeating.upcomingDates(anchor: start, after: start, first: startPlus(60), count: 3),
      [startPlus(60), startPlus(120), startPlus(180)])
    let once = interval(60)
    XCTAssertEqual(once.upcomingDates(anchor: start, after: start, first: startPlus(60), count: 3), [startPlus(60)])
    XCTAssertEqual(repeating.upcomingDates(anchor: start, after: start, first: startPlus(60), count: 0), [])
    XCTAssertEqual(Trigger.push.upcomingDates(anchor: start, after: start, first: start, count: 3), [])
  }

  func testUpcomingDatesForCalendar() throws {
    let daily = try utcCalendar(.init(hour: 9), repeats: true)
    let first = instant("2026-01-01T09:00:00Z")
    XCTAssertEqual(
      daily.upcomingDates(anchor: start, after: start, first: first, count: 3).map(\.rfc3339),
      ["2026-01-01T09:00:00.000Z", "2026-01-02T09:00:00.000Z", "2026-01-03T09:00:00.000Z"])
    let once = try utcCalendar(.init(hour: 9), repeats: false)
    XCTAssertEqual(once.upcomingDates(anchor: start, after: start, first: first, count: 3), [first])
  }

  func testRepeatingTriggerNextDateHasNoDrift() {
    let t = interval(60, repeats: true)
    XCTAssertEqual(t.nextDate(anchor: start, after: startPlus(60)), startPlus(120))
    XCTAssertEqual(t.nextDate(anchor: start, after: startPlus(605)), startPlus(660))
    XCTAssertEqual(t.nextDate(anchor: start, after: start.adding(milliseconds: -5000)), startPlus(60))
    XCTAssertNil(Trigger.push.nextDate(anchor: start, after: start))
  }
}
