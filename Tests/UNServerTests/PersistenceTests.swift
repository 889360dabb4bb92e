import Foundation
import JSONRPC
import UNModel
import UNStore
import XCTest

@testable import UNServer

/// Pending requests are stored as rows numbered by their addition sequence: replacing,
/// removing, firing and resetting must leave exactly the current requests in the store.
final class PersistenceTests: XCTestCase {
  private let t0 = Instant(milliseconds: 1_767_254_400_000)

  private func request(_ id: String, _ title: String, seconds: Double, repeats: Bool = false) throws
    -> NotificationRequest
  {
    var content = Content()
    content.title = title
    return NotificationRequest(
      identifier: id, content: content,
      trigger: .timeInterval(try TimeIntervalTrigger(seconds: seconds, repeats: repeats)))
  }

  /// The pending requests of every app, as a reloaded center sees them.
  private func reloaded(_ store: StateStore) throws -> [ExactKey: [PendingRequest]] {
    let center = Center(clock: ManualClock(t0))
    try Persistence(store: store).load(into: center)
    return center.apps.mapValues { $0.pending.unordered.sorted { $0.identifier < $1.identifier } }
  }

  private func current(_ center: Center) -> [ExactKey: [PendingRequest]] {
    center.apps.filter { !$0.value.pending.isEmpty }.mapValues {
      $0.pending.unordered.sorted { $0.identifier < $1.identifier }
    }
  }

  func testStoredPendingRowsFollowEveryKindOfChange() throws {
    let directory = NSTemporaryDirectory() + "persistence-\(UUID().uuidString)"
    addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteStore(directory: directory, durability: .normal)
    let center = Center(clock: ManualClock(t0))
    center.changes.isEnabled = true
    let persistence = Persistence(store: store)
    func commitAndCompare(_ step: String) throws {
      try persistence.commit(center)
      XCTAssertEqual(try reloaded(store).filter { !$0.value.isEmpty }, current(center), step)
    }

    for (id, seconds, repeats) in [("a", 60.0, false), ("b", 60, false), ("c", 30, false), ("d", 60, true)] {
      _ = try center.schedule(app: "x", try request(id, id, seconds: seconds, repeats: repeats))
    }
    _ = try center.schedule(app: "y", try request("a", "other app", seconds: 90))
    try commitAndCompare("scheduled")

    _ = try center.schedule(app: "x", try request("a", "replaced", seconds: 3600))
    XCTAssertEqual(center.removePending(app: "x", identifiers: ["b"]), 1)
    // Added and replaced within one commit.
    _ = try center.schedule(app: "x", try request("e", "first", seconds: 600))
    _ = try center.schedule(app: "x", try request("e", "second", seconds: 700))
    try commitAndCompare("replaced and removed")

    // c fires (one-shot, gone), d fires (repeating, moved on).
    _ = try center.advanceClock(seconds: 61)
    _ = center.takeEffects()
    try commitAndCompare("fired")
    XCTAssertEqual(try reloaded(store)["x"]?.map(\.identifier), ["a", "d", "e"])

    _ = try center.schedule(app: "x", try request("f", "now", seconds: 60))
    center.reset(app: "y")
    try commitAndCompare("reset")
    XCTAssertNil(try reloaded(store)["y"]?.first)

    XCTAssertEqual(center.removePending(app: "x", identifiers: nil), 4)
    try commitAndCompare("all removed")
    XCTAssertTrue(try reloaded(store).values.allSatisfy(\.isEmpty))
  }

  /// Adding requests does not rewrite the globals row each commit: the store keeps a
  /// ceiling of the addition numbers, reserved a block at a time, and after a restart
  /// new requests are numbered above it, after every stored one.
  func testAdditionNumbersAreReservedInBlocksAndResumeAboveTheCeiling() throws {
    let store = GlobalsCountingStore()
    let center = Center(clock: ManualClock(t0))
    center.changes.isEnabled = true
    let persistence = Persistence(store: store)
    for n in 0..<2_500 {
      _ = try center.schedule(app: "x", try request("r\(n)", "t", seconds: 60))
      try persistence.commit(center)
    }
    let globalsWrites = store.globalsPuts
    // 2 500 commits of one request each: the ceiling moved 3 times (at the 1st, 1 002nd
    // and 2 003rd request).
    XCTAssertEqual(globalsWrites, 3)
    let reloaded = Center(clock: ManualClock(t0))
    try Persistence(store: store).load(into: reloaded)
    let stored = reloaded.apps["x"]!.pending.unordered.map(\.addedSequence)
    XCTAssertEqual(stored.count, 2_500)
    reloaded.changes.isEnabled = true
    _ = try reloaded.schedule(app: "x", try request("new", "t", seconds: 60))
    let added = reloaded.apps["x"]!.pending.unordered.first { $0.identifier == "new" }!.addedSequence
    XCTAssertGreaterThan(added, stored.max()!)
    XCTAssertGreaterThan(added, 3_000)  // above the stored ceiling, not right after the last
  }
}

/// A memory store that counts the commits that write the globals row.
private final class GlobalsCountingStore: StateStore {
  let inner = MemoryStore()
  var globalsPuts = 0

  func loadAll() throws(StoreError) -> [StoredRow] { try inner.loadAll() }

  func commit(_ changes: [StoreChange]) throws(StoreError) {
    for change in changes {
      if case .put(let row) = change, row.table == Persistence.Table.globals { globalsPuts += 1 }
    }
    try inner.commit(changes)
  }

  func close() {}
}
