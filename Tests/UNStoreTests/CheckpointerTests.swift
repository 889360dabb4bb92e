import CSQLite
import Foundation
import Synchronization
import UNStore
import XCTest

/// The store's second connection, which checkpoints while the writer commits, and what
/// it requires: normal locking, a lock file against a second store, and a commit's log
/// frames in the file before any other connection can see the commit.
final class CheckpointerTests: XCTestCase {
  private var directory = ""

  override func setUp() {
    directory = NSTemporaryDirectory() + "unstore-checkpoint-\(UUID().uuidString)"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func rows(_ batch: UInt64, count: UInt64 = 500) -> [StoreChange] {
    (0..<count).map { i in
      let n = batch * 10_000 + i
      return .putNumbered(table: "p", app: "a", number: n, value: Array(repeating: UInt8(n % 251), count: 900))
    }
  }

  private func size(_ name: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? 0
  }

  /// One store per directory: a second is refused with a message naming the lock, and
  /// opens once the first is closed.
  func testASecondStoreOnTheSameDirectoryIsRefused() throws {
    let first = try SQLiteStore(directory: directory, durability: .normal)
    try first.commit([.put(StoredRow(table: "t", app: "a", key: "k", value: Array("v".utf8)))])
    XCTAssertThrowsError(try SQLiteStore(directory: directory, durability: .normal)) { error in
      XCTAssertTrue("\(error)".contains("in use by another uncenterd"), "\(error)")
      XCTAssertTrue("\(error)".contains("uncenter.lock"), "\(error)")
    }
    first.close()
    let second = try SQLiteStore(directory: directory, durability: .normal)
    XCTAssertEqual(try second.loadAll().map(\.key), ["k"])
    second.close()
  }

  /// The database file takes the log's pages while the store is open, from the
  /// checkpointer's thread: past `checkpointPages` (1,000) and short of the writer's own
  /// catch-up (8,000), nothing else copies them.
  func testTheCheckpointerCopiesTheLogIntoTheDatabase() throws {
    let store = try SQLiteStore(directory: directory, durability: .normal)
    let before = size("uncenter.db")
    // 6 commits of ~225 pages, each followed by `maintain` as the writer thread does.
    for batch in 1...6 as ClosedRange<UInt64> {
      try store.commit(rows(batch, count: 1000))
      store.maintain()
    }
    var waited = 0
    while size("uncenter.db") < 4_000_000 && waited < 10_000 {
      usleep(10_000)
      waited += 10
    }
    XCTAssertGreaterThan(size("uncenter.db"), 4_000_000, "database file \(before) → \(size("uncenter.db")) bytes")
    store.close()
    let reopened = try SQLiteStore(directory: directory, durability: .normal)
    XCTAssertEqual(try reopened.loadAll().count, 6_000)
    reopened.close()
  }

  /// Commits that never pause keep the log under `catchUpWaitPages` and one commit: the
  /// writer finishes what the checkpointer's passes could not, and the log starts again.
  /// Small limits, so that the bound is far below what goes through the log.
  func testTheLogStaysBoundedWhileCommitsGoOn() throws {
    let limits = SQLiteStore.LogLimits(checkpointPages: 500, catchUpPages: 1000)
    let store = try SQLiteStore(directory: directory, durability: .normal, limits: limits)
    // ~54 MB through the log, ~225 pages a commit.
    for batch in 1...60 as ClosedRange<UInt64> {
      try store.commit(rows(batch, count: 1000))
      store.maintain()
    }
    let bound = (limits.catchUpWaitPages + 300) * (4096 + 24)
    XCTAssertLessThan(size("uncenter.db-wal"), bound)
    store.close()
    let reopened = try SQLiteStore(directory: directory, durability: .normal)
    XCTAssertEqual(try reopened.loadAll().count, 60_000)
    reopened.close()
  }

  /// The defaults: a pass is asked for long before the writer catches up, and the writer
  /// waits for a pass only well past its own threshold.
  func testTheDefaultLimitsAreOrdered() {
    let limits = SQLiteStore.LogLimits()
    XCTAssertEqual(limits.checkpointPages, 1000)
    XCTAssertEqual(limits.catchUpPages, 8000)
    XCTAssertGreaterThan(limits.catchUpWaitPages, limits.catchUpPages)
  }

  /// Another connection reading while commits are written sees every commit whole: the
  /// frames of a commit reach the file before the commit is published to other
  /// connections (the barrier in walbuffer.h), not only before `commit` returns.  The
  /// reader starts a read transaction again and again, reading the newest row, which a
  /// commit published before its last frames were written would leave beyond the end of
  /// the file.
  func testAReaderNeverSeesACommitWhoseFramesAreNotWritten() throws {
    let store = try SQLiteStore(directory: directory, durability: .normal)
    try store.commit(rows(0))
    let shared = ReaderState()
    let path = directory + "/uncenter.db"
    let reader = Thread {
      var db: OpaquePointer?
      guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
        shared.problems.withLock { $0.append("cannot open: \(String(cString: sqlite3_errmsg(db)))") }
        return
      }
      defer { sqlite3_close(db) }
      sqlite3_busy_timeout(db, 1000)
      var stmt: OpaquePointer?
      sqlite3_prepare_v2(db, "SELECT num, value FROM \"numbered:p\" ORDER BY num DESC LIMIT 1", -1, &stmt, nil)
      defer { sqlite3_finalize(stmt) }
      while !shared.stop.load(ordering: .relaxed) {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW {
          let n = UInt64(sqlite3_column_int64(stmt, 0))
          let count = Int(sqlite3_column_bytes(stmt, 1))
          let bytes = UnsafeRawBufferPointer(start: sqlite3_column_blob(stmt, 1), count: count)
          if count != 900 || bytes.contains(where: { $0 != UInt8(n % 251) }) {
            shared.problems.withLock { $0.append("row \(n): \(count) bytes, not its own") }
          }
        } else if rc != SQLITE_BUSY {
          shared.problems.withLock { $0.append("read failed: \(rc) \(String(cString: sqlite3_errmsg(db)))") }
        }
        sqlite3_reset(stmt)
        shared.reads.add(1, ordering: .relaxed)
      }
    }
    reader.start()
    for batch in 1...200 as ClosedRange<UInt64> {
      try store.commit(rows(batch))
      store.maintain()
    }
    shared.stop.store(true, ordering: .relaxed)
    while !reader.isFinished { usleep(1000) }
    XCTAssertEqual(shared.problems.withLock { $0 }.prefix(5), [])
    XCTAssertGreaterThan(shared.reads.load(ordering: .relaxed), 200)
    store.close()
  }
}

private final class ReaderState: Sendable {
  let stop = Atomic<Bool>(false)
  let problems = Mutex<[String]>([])
  let reads = Atomic<Int>(0)
}
