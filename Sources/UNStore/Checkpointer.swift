import CSQLite
import Foundation
import Synchronization

/// Copies the write-ahead log back into the database (a checkpoint) on a thread and a
/// connection of its own, while the store's writer goes on committing: a checkpoint syncs
/// the log, copies its pages and syncs the database, which takes milliseconds, during
/// which a checkpoint on the writer's own connection held back every commit, and so every
/// answer waiting for one (see BENCHMARKS.md).
///
/// Passive: a pass copies the frames committed when it starts and never waits for the
/// writer.  The log starts again from its beginning only when a pass has copied all of
/// it before the writer's next commit, which a writer that never pauses does not allow;
/// the writer then finishes the copy itself (`catchUp`), short because the passes have
/// done most of it.
///
/// `request` and `catchUp` are called by the writer's thread, `close` once at the end.
final class Checkpointer: Sendable {
  private struct Shared {
    var requested = false
    var closing = false
  }

  /// The checkpointer's connection, held by a pass (and by `catchUp`, so that a pass and
  /// a catch-up never run at once).
  private let connection: Mutex<Connection>
  private let shared = Mutex(Shared())
  private let work = DispatchSemaphore(value: 0)
  private let ended = DispatchSemaphore(value: 0)
  /// A descriptor of the database file, for `AppendedPages` (owned by the store).
  private let databaseFD: Int32

  /// Opens the second connection to `path` (through the same VFS as the writer's) and
  /// starts the thread.  `databaseFD` (-1 for none) is a descriptor of the same file that
  /// stays open until the thread has ended.
  init(path: String, vfs: String?, synchronous: String, databaseFD: Int32 = -1) throws(StoreError) {
    self.databaseFD = databaseFD
    // Its checkpoints sync as the writer's commits do (the connection's own setting).
    connection = Mutex(try Connection(path: path, vfs: vfs, synchronous: synchronous))
    let thread = Thread { [self] in self.run() }
    thread.name = "uncenterd-checkpoint"
    thread.start()
  }

  /// Asks for a pass (one pending request at a time; never waits).
  func request() {
    let wake = shared.withLock { shared in
      defer { shared.requested = true }
      return !shared.requested && !shared.closing
    }
    if wake { work.signal() }
  }

  /// On the writer's thread, between its commits: copies what is left of the log through
  /// `writerDB`, which is complete because the writer is not committing meanwhile; the
  /// writer's next commit then starts the log again.  Returns false, having done nothing,
  /// when a pass is in progress and `wait` is false: the writer goes on committing, and
  /// tries again after its next commit, when the pass has copied most of what it would
  /// copy (waiting for it held back every commit for up to a whole pass).
  func catchUp(_ writerDB: OpaquePointer?, wait: Bool) -> Bool {
    if wait {
      connection.withLock { _ in Self.copyRest(writerDB) }
      return true
    }
    return connection.withLockIfAvailable { _ in Self.copyRest(writerDB) } != nil
  }

  private static func copyRest(_ writerDB: OpaquePointer?) {
    _ = sqlite3_wal_checkpoint_v2(writerDB, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
  }

  /// Ends the thread and closes its connection (before the writer closes its own, the
  /// last, which then copies the rest and removes the log).
  func close() {
    let first = shared.withLock { shared in
      defer { shared.closing = true }
      return !shared.closing
    }
    guard first else { return }
    work.signal()
    ended.wait()
  }

  private func run() {
    var appended = AppendedPages(fd: databaseFD)
    while true {
      work.wait()
      let closing = shared.withLock { shared in
        shared.requested = false
        return shared.closing
      }
      if closing { break }
      // A failed pass leaves the pages in the log, where they stay durable; the next
      // request tries again.
      connection.withLock { connection in
        _ = sqlite3_wal_checkpoint_v2(connection.db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      }
      appended.release()
    }
    connection.withLock { connection in
      sqlite3_close(connection.db)
      connection.db = nil
    }
    ended.signal()
  }

  /// The connection's handle.  Only ever used under `connection`'s lock, by one thread at
  /// a time, as a connection opened with SQLITE_OPEN_NOMUTEX must be.
  struct Connection: ~Copyable {
    var db: OpaquePointer?

    init(path: String, vfs: String?, synchronous: String) throws(StoreError) {
      let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
      guard sqlite3_open_v2(path, &db, flags, vfs) == SQLITE_OK,
        sqlite3_exec(db, "PRAGMA synchronous=\(synchronous)", nil, nil, nil) == SQLITE_OK
      else {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
        sqlite3_close(db)
        throw StoreError("cannot open \(path) for checkpoints: \(message)")
      }
    }
  }
}
