import Foundation
import UNModel
import UNStore
import XCTest

@testable import UNServer

/// The stored event history (`EventRuns`): after every commit a reloaded center has the
/// same history, under the same numbers, and the store keeps no run none of whose events
/// is in it.
final class EventRunsTests: XCTestCase {
  private let t0 = Instant(milliseconds: 1_767_254_400_000)
  private let bound = 5

  private func center() -> Center {
    var configuration = CenterConfiguration()
    configuration.eventHistoryPerApp = bound
    return Center(clock: ManualClock(t0), configuration: configuration)
  }

  private func schedule(_ center: Center, _ app: String, _ id: String) throws {
    var content = Content()
    content.title = id
    _ = try center.schedule(
      app: app,
      NotificationRequest(
        identifier: id, content: content, trigger: .timeInterval(try TimeIntervalTrigger(seconds: 60, repeats: false))))
  }

  private func history(_ center: Center, _ apps: [String]) -> [String: [UInt64]] {
    Dictionary(uniqueKeysWithValues: apps.map { ($0, center.history.events(of: $0).map(\.sequence)) })
  }

  private func runRows(_ store: StateStore) throws -> [StoredRow] {
    try store.loadAll().filter { $0.table == Persistence.Table.eventRuns }
  }

  func testRunsFollowTheHistoryAcrossBatchesResetsAndOverflows() throws {
    let directory = NSTemporaryDirectory() + "event-runs-\(UUID().uuidString)"
    addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteStore(directory: directory, durability: .normal)
    let live = center()
    live.changes.isEnabled = true
    let persistence = Persistence(store: store)
    let apps = ["x", "y", "z"]
    var step = 0
    func commitAndCompare(_ what: String) throws {
      step += 1
      try persistence.commit(live)
      let reloaded = center()
      try Persistence(store: store).load(into: reloaded)
      XCTAssertEqual(history(reloaded, apps), history(live, apps), "\(what) (commit \(step))")
      // No dead run is kept: each holds at least one event of its app's history (its
      // events are the app's from its first up to the next run's first).
      let rows = try runRows(store)
      for app in apps {
        let kept = live.history.events(of: app).map(\.sequence)
        let firsts = rows.filter { $0.app == app }.map { UInt64($0.key)! - StateCodec.eventNumberBase }.sorted()
        for (k, first) in firsts.enumerated() {
          let end = k + 1 < firsts.count ? firsts[k + 1] : .max
          XCTAssertTrue(
            kept.contains { $0 >= first && $0 < end }, "run \(first) of \(app) outlived its events (\(what))")
        }
      }
    }

    try schedule(live, "x", "x1")
    try commitAndCompare("one event")
    for i in 2...4 { try schedule(live, "x", "x\(i)") }
    try schedule(live, "y", "y1")
    try schedule(live, "x", "x5")
    try commitAndCompare("two apps interleaved in one batch")
    // Past the bound, one batch at a time: the oldest runs empty and go.
    for i in 6...14 {
      try schedule(live, "x", "x\(i)")
      try commitAndCompare("x\(i), beyond the bound")
    }
    // More than the bound in one batch: some events leave in the batch they came in.
    for i in 15...27 { try schedule(live, "x", "x\(i)") }
    try schedule(live, "z", "z1")
    try commitAndCompare("overflow within one batch")
    XCTAssertEqual(live.history.events(of: "x").count, bound)
    // A reset between events of the same batch: only the later ones are kept.
    try schedule(live, "y", "y2")
    live.reset(app: "y")
    try schedule(live, "y", "y3")
    try schedule(live, "y", "y4")
    try commitAndCompare("reset mid-batch")
    XCTAssertEqual(live.history.events(of: "y").count, 2)
    live.reset(app: "y")
    try commitAndCompare("reset")
    XCTAssertTrue(try runRows(store).allSatisfy { $0.app != "y" })
    // The restored runs go on being counted: a reloaded daemon pushes old events out too.
    let restarted = center()
    restarted.changes.isEnabled = true
    let again = Persistence(store: store)
    try again.load(into: restarted)
    try again.commit(restarted)
    for i in 28...40 {
      try schedule(restarted, "x", "x\(i)")
      if i % 3 == 0 { try again.commit(restarted) }
    }
    try again.commit(restarted)
    let reloaded = center()
    try Persistence(store: store).load(into: reloaded)
    XCTAssertEqual(history(reloaded, apps), history(restarted, apps), "after a restart")
    XCTAssertLessThanOrEqual(try runRows(store).filter { $0.app == "x" }.count, bound)
  }

  /// A schema version 4 file kept a row per event: loaded, those rows are replaced by
  /// runs in the start-up commit, with the same history.
  func testRowsOfSingleEventsBecomeRunsAtStartUp() throws {
    let directory = NSTemporaryDirectory() + "event-rows-\(UUID().uuidString)"
    addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteStore(directory: directory, durability: .normal)
    let old = center()
    for i in 1...8 { try schedule(old, i % 2 == 0 ? "x" : "y", "r\(i)") }
    // As version 4 wrote them: every kept event in its own row.
    var rows: [StoreChange] = []
    for app in ["x", "y"] {
      for event in old.history.events(of: app) {
        rows.append(
          .putNumbered(
            table: Persistence.Table.events, app: app, number: StateCodec.eventNumberBase + event.sequence,
            value: StateCodec.eventRow(event)))
      }
    }
    try store.commit(rows)

    let loaded = center()
    loaded.changes.isEnabled = true
    let persistence = Persistence(store: store)
    try persistence.load(into: loaded)
    XCTAssertEqual(history(loaded, ["x", "y"]), history(old, ["x", "y"]))
    try persistence.commit(loaded)
    let stored = try store.loadAll()
    XCTAssertFalse(stored.contains { $0.table == Persistence.Table.events }, "the single-event rows are gone")
    XCTAssertEqual(Set(stored.filter { $0.table == Persistence.Table.eventRuns }.map(\.app)), ["x", "y"])
    let reloaded = center()
    try Persistence(store: store).load(into: reloaded)
    XCTAssertEqual(history(reloaded, ["x", "y"]), history(old, ["x", "y"]))
  }

  func testAnAppsOldestRunLosesItsEventsFirst() {
    var runs = EventRuns()
    runs.added(app: "a", number: 10, live: 2)
    runs.added(app: "b", number: 11, live: 1)
    runs.added(app: "a", number: 12, live: 1)
    XCTAssertNil(forgetOne(&runs, "a"))
    XCTAssertEqual(forgetOne(&runs, "a"), 10)
    XCTAssertEqual(runs.runs(of: "a"), [EventRuns.Run(number: 12, live: 1)])
    XCTAssertEqual(runs.removeAll(of: "b"), [11])
    XCTAssertNil(forgetOne(&runs, "b"))
    XCTAssertEqual(forgetOne(&runs, "a"), 12)
    XCTAssertEqual(runs.runs(of: "a"), [])
    // Many runs come and go: the queue stays short.
    for n in 0..<1000 as Range<UInt64> {
      runs.added(app: "c", number: 100 + n, live: 1)
      if n >= 3 { XCTAssertEqual(forgetOne(&runs, "c"), 100 + n - 3) }
    }
    XCTAssertEqual(runs.runs(of: "c").map(\.number), [1097, 1098, 1099])
  }

  /// Several events leaving at once (a batch's worth) empty the oldest runs in order and
  /// take the rest from the next, as one at a time would.
  func testManyEventsLeavingAtOnceMatchOneAtATime() {
    var together = EventRuns()
    var single = EventRuns()
    for (number, live) in [(10, 2), (12, 3), (15, 1), (16, 4)] as [(UInt64, Int)] {
      together.added(app: "a", number: number, live: live)
      single.added(app: "a", number: number, live: live)
    }
    var emptied: [UInt64] = []
    together.forgetOldest(6, of: "a") { emptied.append($0) }
    let one = (0..<6).compactMap { _ in forgetOne(&single, "a") }
    XCTAssertEqual(emptied, [10, 12, 15])
    XCTAssertEqual(one, emptied)
    XCTAssertEqual(together.runs(of: "a"), [EventRuns.Run(number: 16, live: 4)])
    XCTAssertEqual(together.runs(of: "a"), single.runs(of: "a"))
    // More than are stored: every run goes, and the app is forgotten.
    together.forgetOldest(9, of: "a") { emptied.append($0) }
    XCTAssertEqual(emptied, [10, 12, 15, 16])
    XCTAssertEqual(together.runs(of: "a"), [])
    together.forgetOldest(0, of: "b") { _ in XCTFail("nothing to forget") }
  }

  /// One event of `app` leaving its history: the run left with none, if any.
  private func forgetOne(_ runs: inout EventRuns, _ app: String) -> UInt64? {
    var emptied: UInt64?
    runs.forgetOldest(1, of: app) { emptied = $0 }
    return emptied
  }
}
