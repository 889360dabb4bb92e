import Foundation
import Synchronization
import XCTest

@testable import UNStore

final class StoreWriterTests: XCTestCase {
  private var directory = ""

  override func setUp() {
    directory = NSTemporaryDirectory() + "unstore-writer-\(UUID().uuidString)"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func put(_ key: String, _ text: String) -> StoreChange {
    .put(StoredRow(table: "t", app: "a", key: key, value: Array(text.utf8)))
  }

  /// Batches committed on the writer thread, in order (a later put of the same row wins),
  /// all durable once `close` returns, and readable by a new store on the same directory.
  func testBatchesAreCommittedInOrderOnTheWriterThread() throws {
    let notified = Counter()
    let writer = StoreWriter(store: try SQLiteStore(directory: directory, durability: .normal)) {
      notified.increment()
    }
    for batch in 1...200 as ClosedRange<UInt64> {
      writer.submit([put("k\(batch % 7)", "v\(batch)"), put("last", "\(batch)")], batch: batch)
    }
    let final = writer.close()
    XCTAssertEqual(final.durable, 200)
    XCTAssertNil(final.failure)
    // Group commit: at least one commit, never more than one per batch.
    XCTAssertGreaterThanOrEqual(notified.value, 1)
    XCTAssertLessThanOrEqual(notified.value, 200)
    let reopened = try SQLiteStore(directory: directory, durability: .normal)
    let rows = Dictionary(
      uniqueKeysWithValues: try reopened.loadAll().map { ($0.key, String(decoding: $0.value, as: UTF8.self)) })
    XCTAssertEqual(rows["last"], "200")
    XCTAssertEqual(rows["k0"], "v196")
    XCTAssertEqual(rows["k4"], "v200")
    reopened.close()
  }

  /// The write-ahead log is checkpointed between commits (`maintain`), so it stays near
  /// the checkpoint threshold however much is written through the writer.
  func testTheLogIsCheckpointedBetweenCommits() throws {
    let limits = SQLiteStore.LogLimits(checkpointPages: 500, catchUpPages: 1000)
    let writer = StoreWriter(
      store: try SQLiteStore(directory: directory, durability: .normal, limits: limits)
    ) {}
    let value = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
    for batch in 1...300 as ClosedRange<UInt64> {
      let rows = (0..<100).map { i in
        StoreChange.putNumbered(table: "t", app: "a", number: batch * 1000 + UInt64(i), value: value)
      }
      writer.submit(rows, batch: batch)
      // One commit per batch, as a busy daemon makes them.
      while writer.progress.durable < batch { usleep(100) }
    }
    // 30 MB went through the log, which never shrinks while the store is open: without
    // checkpoints it would hold all of it.
    let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/uncenter.db-wal")
    XCTAssertLessThan(attributes[.size] as? Int ?? .max, (limits.catchUpWaitPages + 100) * (4096 + 24))
    XCTAssertEqual(writer.close().durable, 300)
  }

  /// A committed list comes back empty for the next batch, its buffers kept: the loop's
  /// batches reuse memory instead of faulting in fresh pages for every commit.  A list
  /// grown past `spareBytesLimit` is freed instead, and no more than `spareCount` wait.
  func testCommittedListsComeBackWithTheirBuffers() throws {
    let writer = StoreWriter(store: try SQLiteStore(directory: directory, durability: .normal)) {}
    XCTAssertNil(writer.spareList())
    let value = [UInt8](repeating: 7, count: 500)
    for batch in 1...(UInt64(StoreWriter.spareCount) + 2) {
      var list = RowBuffer()
      for i in 0..<100 as Range<UInt64> {
        list.putNumbered(table: "t", app: "a", number: batch * 1000 + i) { $0.append(contentsOf: value) }
      }
      writer.submit(list, batch: batch)
      while writer.progress.durable < batch { usleep(100) }
    }
    var spares: [RowBuffer] = []
    while let spare = writer.spareList() { spares.append(spare) }
    XCTAssertFalse(spares.isEmpty)
    XCTAssertLessThanOrEqual(spares.count, StoreWriter.spareCount)
    for spare in spares {
      XCTAssertTrue(spare.isEmpty)
      XCTAssertGreaterThanOrEqual(spare.capacityBytes, 100 * 500)
    }

    var huge = RowBuffer()
    huge.putNumbered(table: "t", app: "a", number: 1) {
      $0.append(contentsOf: [UInt8](repeating: 1, count: StoreWriter.spareBytesLimit + 1))
    }
    writer.submit(huge, batch: 100)
    while writer.progress.durable < 100 { usleep(100) }
    XCTAssertNil(writer.spareList())
    XCTAssertEqual(writer.close().durable, 100)
  }

  /// A failed commit keeps its batches: nothing later is written without them, and once
  /// the store takes writes again a retry commits them all, in order, and the failure is
  /// reported no more.
  func testAFailedCommitKeepsItsBatchesUntilARetrySucceeds() throws {
    let store = FailingStore()
    let writer = StoreWriter(store: store) {}
    writer.submit([put("a", "1")], batch: 1)
    while writer.progress.durable < 1 { usleep(1000) }
    store.failing.withLock { $0 = true }
    writer.submit([put("b", "2")], batch: 2)
    while writer.progress.failure == nil { usleep(1000) }
    writer.submit([put("c", "3")], batch: 3)
    // Each attempt fails while the store refuses: still only batch 1 durable.
    writer.retry()
    usleep(20_000)
    XCTAssertEqual(writer.progress.durable, 1)
    XCTAssertNotNil(writer.progress.failure)
    XCTAssertGreaterThan(writer.progress.unwrittenBatches, 0)
    store.failing.withLock { $0 = false }
    writer.retry()
    while writer.progress.durable < 3 { usleep(1000) }
    XCTAssertNil(writer.progress.failure)
    XCTAssertEqual(writer.progress.unwrittenBatches, 0)
    let final = writer.close()
    XCTAssertEqual(final.durable, 3)
    XCTAssertEqual(store.committed.withLock { $0 }, ["a", "b", "c"])
    XCTAssertTrue(store.closed.withLock { $0 })
  }

  /// The commit that meets a full disk goes through on the reserve's room, so its callers
  /// are answered; the failure stays reported until the reserve can be set aside again.
  func testTheReserveLetsTheFailingCommitThroughAndEndsTheFailureWhenRestored() throws {
    let store = FailingStore(reserve: true)
    let writer = StoreWriter(store: store) {}
    store.failing.withLock { $0 = true }
    writer.submit([put("a", "1")], batch: 1)
    while writer.progress.durable < 1 { usleep(1000) }
    XCTAssertEqual(store.committed.withLock { $0 }, ["a"])
    XCTAssertNotNil(writer.progress.failure, "the disk is still full: no reserve")
    XCTAssertEqual(writer.progress.unwrittenBatches, 0)
    // Later batches fail again (no second reserve) and wait.
    writer.submit([put("b", "2")], batch: 2)
    usleep(20_000)
    XCTAssertEqual(writer.progress.durable, 1)
    // Space comes back: the waiting batch is written and the reserve made again.
    store.failing.withLock { $0 = false }
    writer.retry()
    while writer.progress.durable < 2 || writer.progress.failure != nil { usleep(1000) }
    XCTAssertTrue(store.reserveHeld.withLock { $0 })
    XCTAssertEqual(writer.close().durable, 2)
  }

  /// A writer that starts without its reserve reports the failure until a retry makes it.
  func testAWriterStartingWithoutItsReserveRecoversOnRetry() throws {
    let store = FailingStore(reserve: true)
    store.reserveHeld.withLock { $0 = false }
    store.failing.withLock { $0 = true }
    let writer = StoreWriter(store: store, failure: StoreError("no room for the reserve")) {}
    writer.retry()
    usleep(20_000)
    XCTAssertNotNil(writer.progress.failure)
    store.failing.withLock { $0 = false }
    writer.retry()
    while writer.progress.failure != nil { usleep(1000) }
    XCTAssertTrue(store.reserveHeld.withLock { $0 })
    _ = writer.close()
  }
}

private final class Counter: Sendable {
  private let count = Mutex(0)
  var value: Int { count.withLock { $0 } }
  func increment() { count.withLock { $0 += 1 } }
}

/// A store that refuses commits (and its reserve) while `failing` is set, with a reserve
/// of its own when asked; records what it committed.  Shared between the test and the
/// writer thread through its mutexes.
private final class FailingStore: StateStore, Sendable {
  let failing = Mutex(false)
  let committed = Mutex<[String]>([])
  let closed = Mutex(false)
  let reserveHeld: Mutex<Bool>
  private let hasReserve: Bool

  init(reserve: Bool = false) {
    hasReserve = reserve
    reserveHeld = Mutex(reserve)
  }

  func loadAll() throws(StoreError) -> [StoredRow] { [] }

  func commit(_ changes: [StoreChange]) throws(StoreError) {
    // With the reserve just given back, one commit fits.
    let refused =
      failing.withLock { $0 }
      && !reserveGivenBack.withLock { given in
        defer { given = false }
        return given
      }
    if refused { throw StoreError("disk full") }
    let keys = changes.compactMap { change -> String? in
      if case .put(let row) = change { return row.key }
      return nil
    }
    committed.withLock { $0 += keys }
  }

  private let reserveGivenBack = Mutex(false)

  func releaseReserve() -> Bool {
    guard hasReserve,
      reserveHeld.withLock({ held in
        defer { held = false }
        return held
      })
    else { return false }
    reserveGivenBack.withLock { $0 = true }
    return true
  }

  func restoreReserve() throws(StoreError) {
    guard hasReserve else { return }
    if failing.withLock({ $0 }) { throw StoreError("no room for the reserve") }
    reserveHeld.withLock { $0 = true }
  }

  func close() { closed.withLock { $0 = true } }
}
