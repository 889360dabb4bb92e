import XCTest

@testable import UNModel

/// `advanceClock` keeps the clock within RFC 3339's years, answers with the first
/// firings and their count, and over a long run routes its effects and keeps its durable
/// batch as it goes rather than gathering a million of each.
final class AdvanceBoundsTests: XCTestCase {
  func testTheRFC3339RangeIsTheFourDigitYears() {
    XCTAssertEqual(Instant.earliestRFC3339.rfc3339, "0000-01-01T00:00:00.000Z")
    XCTAssertEqual(Instant.latestRFC3339.rfc3339, "9999-12-31T23:59:59.999Z")
    XCTAssertTrue(Instant.earliestRFC3339.isRFC3339)
    XCTAssertTrue(Instant.latestRFC3339.isRFC3339)
    XCTAssertFalse(Instant.earliestRFC3339.adding(milliseconds: -1).isRFC3339)
    XCTAssertFalse(Instant.latestRFC3339.adding(milliseconds: 1).isRFC3339)
    XCTAssertEqual(Instant(rfc3339: "9999-12-31T23:59:59.999Z"), Instant.latestRFC3339)
  }

  func testAnAdvancePastYear9999IsRefusedNamingSecondsAndChangesNothing() throws {
    let clock = ManualClock(Instant(rfc3339: "9999-12-31T23:00:00Z")!)
    let center = Center(clock: clock)
    _ = try center.schedule(app: "a", request("r", content(), interval(60, repeats: true)))
    _ = center.takeEffects()
    for seconds in [3600, 3599.9995, 100.0 * 366 * 86_400] {
      do {
        _ = try center.advanceClock(seconds: seconds)
        XCTFail("advanced \(seconds) s from 9999-12-31T23:00:00Z")
      } catch {
        guard case .invalidParams(let field, let problem) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(field, "seconds")
        XCTAssertTrue(problem.contains("9999-12-31T23:59:59.999Z"), problem)
        XCTAssertTrue(problem.contains("at most 3599.999 seconds"), problem)
      }
    }
    XCTAssertEqual(clock.now.rfc3339, "9999-12-31T23:00:00.000Z")
    XCTAssertEqual(center.app("a").pending["r"]?.nextDate.rfc3339, "9999-12-31T23:01:00.000Z")
    XCTAssertTrue(center.takeEffects().isEmpty, "nothing fired")

    let last = try center.advanceClock(seconds: 3599.999)
    XCTAssertEqual(last.now, Instant.latestRFC3339)
    XCTAssertEqual(last.firedCount, 59)
    XCTAssertThrowsError(try center.advanceClock(seconds: 0.001))
    XCTAssertEqual(try center.advanceClock(seconds: 0).now, Instant.latestRFC3339)
  }

  func testTheAnswerListsTheFirstFiringsAndCountsThemAll() throws {
    let (center, _) = makeCenter()
    _ = try center.schedule(app: "a", request("tick", content(), interval(60, repeats: true)))
    _ = try center.schedule(app: "a", request("once", content(), interval(90)))
    let advance = try center.advanceClock(seconds: 2500 * 60)
    XCTAssertEqual(advance.firedCount, 2501)
    XCTAssertEqual(advance.fired.count, Center.listedFirings)
    XCTAssertEqual(Array(advance.fired.prefix(3)), ["tick", "once", "tick"])
    let short = try center.advanceClock(seconds: 120)
    XCTAssertEqual(short.fired, ["tick", "tick"])
    XCTAssertEqual(short.firedCount, 2)
  }

  /// The consumer is called between firings once `effectBacklog` effects wait, with the
  /// clock at the firing it stopped after; what it routes is in firing order.
  func testALongRunRoutesItsEffectsAsItGoes() throws {
    let (center, clock) = makeCenter()
    _ = try center.schedule(app: "a", request("tick", content(), interval(60, repeats: true)))
    _ = center.takeEffects()
    var routed: [Event] = []
    var calls = 0
    var largest = 0
    center.onEffectBacklog = {
      calls += 1
      largest = max(largest, center.effects.count)
      while let effect = center.effects.popFirst() {
        if case .event(let e) = effect { routed.append(e) }
      }
      XCTAssertEqual(routed.last?.date, clock.now, "called between firings, at the last one's time")
    }
    let advance = try center.advanceClock(seconds: 10_000 * 60)
    for effect in center.takeEffects() {
      if case .event(let e) = effect { routed.append(e) }
    }
    XCTAssertEqual(advance.firedCount, 10_000)
    XCTAssertGreaterThanOrEqual(calls, 10_000 * 2 / (Center.effectBacklog + 2))
    XCTAssertLessThan(largest, Center.effectBacklog + 4, "effects never pile up beyond the backlog and one firing's")
    XCTAssertEqual(routed.count, 20_000)
    XCTAssertEqual(routed.map(\.sequence), (routed.first!.sequence..<routed.first!.sequence + 20_000).map { $0 })
    XCTAssertEqual(routed.last?.date.rfc3339, "2026-01-08T06:40:00.000Z")
  }

  /// With a durable store, a long run's batch holds what the store will keep, not every
  /// firing: events that left the history within the batch and earlier moves of the
  /// same request are dropped as it goes.
  func testALongRunKeepsItsDurableBatchAsLargeAsItsResult() throws {
    let (center, _) = makeCenter()
    center.changes.isEnabled = true
    _ = try center.schedule(app: "a", request("tick", content(), interval(60, repeats: true)))
    _ = try center.schedule(app: "a", request("keep", content(), interval(86_400 * 30)))
    _ = center.takeChanges()
    var largestEvents = 0
    var largestPending = 0
    center.onEffectBacklog = {
      largestEvents = max(largestEvents, center.changes.set.events.count)
      largestPending = max(largestPending, center.changes.set.pending.count)
      while center.effects.popFirst() != nil {}
    }
    _ = try center.advanceClock(seconds: 20_000 * 60)
    XCTAssertLessThanOrEqual(largestEvents, 2 * max(1000, ChangeJournal.minimumCompaction))
    XCTAssertLessThanOrEqual(largestPending, 2 * ChangeJournal.minimumCompaction)
    let batch = center.takeChanges()
    XCTAssertEqual(batch.events.map(\.sequence), center.history.events(of: "a").map(\.sequence))
    XCTAssertEqual(batch.events.count, 1000)
    XCTAssertEqual(batch.forgottenEvents.map(\.sequence), [1, 2], "the two scheduled events, from the batch before")
    let stored = batch.pending.compactMap { change -> String? in
      if case .stored(let s) = change { s.view.identifier } else { nil }
    }
    XCTAssertEqual(stored, ["tick"], "one entry for the request however many times it moved")
    XCTAssertEqual(center.app("a").pending["tick"]?.nextDate, start.adding(milliseconds: 20_001 * 60_000))
  }
}
