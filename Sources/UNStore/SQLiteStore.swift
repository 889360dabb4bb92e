import CSQLite
import Foundation

/// State in SQLite (WAL) in a directory: `uncenter.db`, with its log and shared-memory
/// index beside it, and `uncenter.lock`, which one store at a time holds (flock) so that
/// two daemons never write one state.  One generic table of rows keeps
/// the schema stable while the record formats evolve; `PRAGMA user_version` numbers the
/// schema so a later version can migrate.  `durability` picks `synchronous=NORMAL`
/// (survives a process crash: every commit is in the WAL before the answer goes out) or
/// `FULL` (also survives power loss: the WAL is fsynced on every commit).
public final class SQLiteStore: StateStore {
  public enum Durability: String, Sendable, CaseIterable {
    case normal, full
  }

  /// 2: numbered rows (`StoreChange.putNumbered`, pending requests) in their own table.
  /// 3: each numbered table in a tree of its own (`NumberedTable`).
  /// 4: the same tables; the server writes its pending and event rows in a shorter form
  /// that a daemon understanding only version 3 cannot read (it reads both), so such a
  /// daemon refuses the file instead of reporting it corrupt.
  /// 5: the same tables; the server keeps its event history in runs of events, a row
  /// per app per commit, which a version 4 daemon does not know.
  /// 6: the same tables; the server writes the common pending rows and events shorter
  /// (positional content, bare intervals, an event's identifier and date in place of its
  /// field list), which a version 5 daemon cannot read (it reads all forms).
  public static let schemaVersion: Int32 = 6
  static let createRows =
    "CREATE TABLE rows (tbl TEXT NOT NULL, app TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL, PRIMARY KEY (tbl, app, key)) WITHOUT ROWID"
  /// Version 2's one table of numbered rows, made again only to migrate a version 1 file.
  /// Now each numbered table has its own (`NumberedTable`), in which the number is the
  /// rowid: a new row is appended to the table's B-tree.  No index on `app`: it would
  /// cost every insert; `reset` deletes an app's numbered rows by their numbers, which
  /// the server knows.
  static let createNumbered = [
    "CREATE TABLE numbered (num INTEGER PRIMARY KEY, tbl TEXT NOT NULL, app TEXT NOT NULL, value BLOB NOT NULL)"
  ]

  public let path: String
  private(set) var db: OpaquePointer?
  private var put: OpaquePointer?
  private var delete: OpaquePointer?
  private var deleteApp: OpaquePointer?
  /// The keyed tables in use: `deleteApp` deletes table by table, each a range of the
  /// primary key (tbl, app, key), instead of scanning every row for the app.
  private var tables = Set<String>()
  /// The numbered tables' statements, by table name, prepared on first use (the table is
  /// created then if it is new).
  private var numberedTables: [String: NumberedTable] = [:]
  /// `BEGIN IMMEDIATE` and `COMMIT`, prepared once instead of parsed for every commit.
  private var begin: OpaquePointer?
  private var end: OpaquePointer?
  /// Pages in the write-ahead log after the last commit (the WAL hook sets it).
  private var logPages = 0
  /// When the log is copied back into the database (`SQLiteStore+LogLimits.swift`).
  private let limits: LogLimits
  /// Copies the log into the database while the writer commits (nil until the schema is
  /// ready).
  private var checkpointer: Checkpointer?
  /// The database file, for the checkpointer's `AppendedPages`; closed after `db`.
  private var databaseFD: Int32 = -1
  /// `uncenter.lock`, held for as long as the store is open.
  private var lock: StateDirectoryLock?
  /// Room set aside for the commit that meets a full disk (`DiskReserve`).
  let reserve: DiskReserve
  /// What was made private when the directory was opened (for the daemon's log).
  public let tightened: StateDirectory.Tightening

  /// `reserveBytes`: the room `uncenter.reserve` sets aside (0: none); it is made by the
  /// first `restoreReserve`.
  public init(directory: String, durability: Durability, limits: LogLimits = LogLimits(), reserveBytes: Int = 0)
    throws(StoreError)
  {
    self.limits = limits
    reserve = DiskReserve(directory: directory, bytes: reserveBytes)
    path = directory.hasSuffix("/") ? directory + "uncenter.db" : directory + "/uncenter.db"
    // Checked and made private, the database there or made new (`StateDirectory`).
    let state = try StateDirectory(directory)
    lock = try state.openDatabase()
    tightened = state.tightened
    // Not SQLITE_OPEN_CREATE: the database is there (a new one was made above).
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
    // The log's frames are handed to the kernel once per commit (walbuffer.h).
    guard sqlite3_open_v2(path, &db, flags, uncenter_wal_vfs()) == SQLITE_OK else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(db)
      db = nil
      throw StoreError("cannot open \(path): \(message)")
    }
    do {
      try prepareSchema(durability: durability)
      // Never closed before the last connection is: closing any descriptor of the file
      // would drop SQLite's POSIX locks on it.
      databaseFD = open(path, O_RDONLY | O_CLOEXEC)
      checkpointer = try Checkpointer(
        path: path, vfs: uncenter_wal_vfs().map { String(cString: $0) }, synchronous: Self.synchronous(durability),
        databaseFD: databaseFD)
    } catch {
      close()
      throw error
    }
  }

  deinit { close() }

  func failure(_ what: String) -> StoreError { fail(what) }

  /// SQLite's message, and the system's error behind it when there is one (`No space left
  /// on device`, `Input/output error`).
  private func fail(_ what: String) -> StoreError {
    guard let db else { return StoreError("\(path): \(what): closed") }
    // A full disk is reported as SQLITE_FULL with no system error kept.
    let system =
      sqlite3_system_errno(db) != 0 ? sqlite3_system_errno(db) : sqlite3_errcode(db) == SQLITE_FULL ? ENOSPC : 0
    let cause = system != 0 ? " (\(String(cString: strerror(system))))" : ""
    return StoreError("\(path): \(what): \(String(cString: sqlite3_errmsg(db)))\(cause)")
  }

  private func corrupt(_ what: String) -> StoreError {
    StateDirectory.unusable(database: path, "\(what): \(db.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")")
  }

  func exec(_ sql: String) throws(StoreError) {
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw fail(sql) }
  }

  static func synchronous(_ durability: Durability) -> String { durability == .full ? "FULL" : "NORMAL" }

  private func prepareSchema(durability: Durability) throws(StoreError) {
    sqlite3_busy_timeout(db, 5000)
    // A corrupt or foreign file fails here, before anything is written.
    var check: OpaquePointer?
    guard sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &check, nil) == SQLITE_OK else {
      throw corrupt("cannot be read (corrupt, or not an SQLite database)")
    }
    let ok = sqlite3_step(check) == SQLITE_ROW && sqlite3_column_text(check, 0).map { String(cString: $0) } == "ok"
    sqlite3_finalize(check)
    guard ok else { throw corrupt("failed its integrity check") }
    // Normal locking, not exclusive: the checkpointer's connection reads the log while
    // this one writes it (the lock file keeps other processes out).
    try exec("PRAGMA journal_mode=WAL")
    try exec("PRAGMA synchronous=\(Self.synchronous(durability))")
    // The write-ahead log is copied back into the database (a checkpoint, which syncs
    // both files) by the checkpointer, asked by `maintain`, rather than by SQLite inside
    // the commit that fills it.  The hook replaces SQLite's automatic checkpoint and
    // records how many pages the log holds after each commit.
    sqlite3_wal_hook(
      db,
      { context, _, _, pages in
        Unmanaged<SQLiteStore>.fromOpaque(context!).takeUnretainedValue().logPages = Int(pages)
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
    // A page cache of 64 MiB (SQLite's default is 2 MiB): with hundreds of thousands of
    // pending requests, the key index's pages then stay in memory instead of being read
    // back from the file on every commit.
    try exec("PRAGMA cache_size=-65536")
    try migrate(from: userVersion())
    put = try prepare("INSERT OR REPLACE INTO rows (tbl, app, key, value) VALUES (?1, ?2, ?3, ?4)")
    delete = try prepare("DELETE FROM rows WHERE tbl = ?1 AND app = ?2 AND key = ?3")
    deleteApp = try prepare("DELETE FROM rows WHERE tbl = ?1 AND app = ?2")
    try loadTableNames()
    begin = try prepare("BEGIN IMMEDIATE")
    end = try prepare("COMMIT")
    // A migration's commit, written out like every other.
    guard uncenter_wal_flush(db) == SQLITE_OK else { throw fail("writing the log") }
  }

  /// The distinct table names, one index seek each (`tbl > previous`), not a scan.
  private func loadTableNames() throws(StoreError) {
    let stmt = try prepare("SELECT tbl FROM rows WHERE tbl > ?1 ORDER BY tbl LIMIT 1")
    defer { sqlite3_finalize(stmt) }
    var previous = ""
    while true {
      sqlite3_reset(stmt)
      bind(stmt, 1, previous)
      let rc = sqlite3_step(stmt)
      if rc == SQLITE_DONE { return }
      guard rc == SQLITE_ROW else { throw fail("listing the tables") }
      previous = text(stmt, 0)
      tables.insert(previous)
    }
  }

  private func userVersion() throws(StoreError) -> Int32 {
    let stmt = try prepare("PRAGMA user_version")
    defer { sqlite3_finalize(stmt) }
    guard sqlite3_step(stmt) == SQLITE_ROW else { throw fail("PRAGMA user_version") }
    return sqlite3_column_int(stmt, 0)
  }

  func prepare(_ sql: String) throws(StoreError) -> OpaquePointer? {
    var stmt: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { throw fail("prepare \(sql)") }
    return stmt
  }

  public func loadAll() throws(StoreError) -> [StoredRow] {
    let numbered = try numberedTableNames().map {
      " UNION ALL SELECT \(Self.literal($0)), app, CAST(num AS TEXT), value FROM \(Self.numberedTable($0))"
    }
    let stmt = try prepare("SELECT tbl, app, key, value FROM rows" + numbered.joined() + " ORDER BY 1, 2, 3")
    defer { sqlite3_finalize(stmt) }
    var rows: [StoredRow] = []
    while true {
      let rc = sqlite3_step(stmt)
      if rc == SQLITE_DONE { break }
      guard rc == SQLITE_ROW else { throw fail("reading the state") }
      let count = Int(sqlite3_column_bytes(stmt, 3))
      let value = sqlite3_column_blob(stmt, 3).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
      rows.append(
        StoredRow(table: text(stmt, 0), app: text(stmt, 1), key: text(stmt, 2), value: value))
    }
    return rows
  }

  private func text(_ stmt: OpaquePointer?, _ column: Int32) -> String { Self.text(stmt, column) }

  /// A text column as all its bytes: a key may hold U+0000, where a C string would end
  /// (and two keys would meet).
  static func text(_ stmt: OpaquePointer?, _ column: Int32) -> String {
    guard let start = sqlite3_column_text(stmt, column) else { return "" }
    let count = Int(sqlite3_column_bytes(stmt, column))
    return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
  }

  public func commit(_ changes: [StoreChange]) throws(StoreError) {
    var list = RowBuffer()
    for change in changes { list.append(change) }
    try commit(list)
  }

  public func commit(_ list: RowBuffer) throws(StoreError) {
    guard !list.isEmpty else { return }
    try step(begin, "BEGIN IMMEDIATE")
    do {
      try applyInRuns(list)
      try step(end, "COMMIT")
    } catch {
      sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
      // A table made by this transaction is gone: its statements are made again.
      forgetNumberedTables()
      throw error
    }
    // The commit's frames are in the log's buffer: to the kernel before the answers go.
    guard uncenter_wal_flush(db) == SQLITE_OK else { throw fail("writing the log") }
  }

  /// The statements of numbered table `name`, which is created if it is new (inside the
  /// commit's transaction).
  func numberedTable(named name: String) throws(StoreError) -> NumberedTable {
    if let known = numberedTables[name] { return known }
    try exec(Self.createNumberedTable(name))
    let table = try NumberedTable(name) { sql throws(StoreError) in try prepare(sql) }
    numberedTables[name] = table
    return table
  }

  private func forgetNumberedTables() {
    for table in numberedTables.values { table.finalize() }
    numberedTables = [:]
  }

  /// Runs a prepared statement that takes no parameters.
  private func step(_ stmt: OpaquePointer?, _ what: String) throws(StoreError) {
    let rc = sqlite3_step(stmt)
    sqlite3_reset(stmt)
    guard rc == SQLITE_DONE else { throw fail(what) }
  }

  func apply(_ change: StoreChange) throws(StoreError) {
    switch change {
    case .put(let row):
      if !tables.contains(row.table) { tables.insert(row.table) }
      try run(put) { stmt in
        row.value.withUnsafeBytes { value in
          bind(stmt, 1, row.table)
          bind(stmt, 2, row.app)
          bind(stmt, 3, row.key)
          sqlite3_bind_blob(
            stmt, 4, value.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(value.count),
            uncenter_sqlite_transient())
          return step(stmt)
        }
      }
    case .delete(let table, let app, let key):
      try run(delete) { stmt in
        bind(stmt, 1, table)
        bind(stmt, 2, app)
        bind(stmt, 3, key)
        return step(stmt)
      }
    case .deleteApp(let app):
      for table in tables.sorted() {
        try run(deleteApp) { stmt in
          bind(stmt, 1, table)
          bind(stmt, 2, app)
          return step(stmt)
        }
      }
    case .putNumbered, .deleteNumbered:
      var one = RowBuffer()  // a run of one
      one.append(change)
      try applyInRuns(one)
    }
  }

  /// Runs one statement: `body` binds every parameter and steps (`step`); the statement
  /// is then reset for its next use.  Bindings are not cleared: every use binds them all.
  private func run(_ stmt: OpaquePointer?, _ body: (OpaquePointer?) -> Int32) throws(StoreError) {
    let rc = body(stmt)
    sqlite3_reset(stmt)
    guard rc == SQLITE_DONE else { throw fail("writing the state") }
  }

  private func step(_ stmt: OpaquePointer?) -> Int32 { sqlite3_step(stmt) }

  /// Binds all of `text`'s bytes: with a length of -1 SQLite would stop at the first
  /// U+0000, and two keys that differ after it would address one row.  (SQLite keeps
  /// and compares a text's every byte when its length is given.)
  private func bind(_ stmt: OpaquePointer?, _ index: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
      // An empty text has no address; SQLite reads no byte of it.
      let start = UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
      sqlite3_bind_text(
        stmt, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), uncenter_sqlite_transient())
    }
  }

  /// Once the log holds `checkpointPages` pages, asks the checkpointer for a pass; past
  /// `catchUpPages` (the passes never caught up with the commits) finishes the copy here,
  /// so that the next commit starts the log again (see `LogLimits`).  Passive: a failure
  /// leaves the pages in the log, where they stay durable, and a later call tries again.
  public func maintain() {
    guard logPages >= limits.checkpointPages, let checkpointer else { return }
    if logPages >= limits.catchUpPages {
      if checkpointer.catchUp(db, wait: logPages >= limits.catchUpWaitPages) { logPages = 0 }
    } else {
      checkpointer.request()
    }
  }

  public func releaseReserve() -> Bool { reserve.release() }

  public func restoreReserve() throws(StoreError) { try reserve.restore() }

  public func close() {
    checkpointer?.close()
    checkpointer = nil
    for stmt in [put, delete, deleteApp, begin, end] { sqlite3_finalize(stmt) }
    (put, delete, deleteApp, begin, end) = (nil, nil, nil, nil, nil)
    forgetNumberedTables()
    if db != nil { sqlite3_close(db) }
    db = nil
    if databaseFD >= 0 { Foundation.close(databaseFD) }
    databaseFD = -1
    lock?.release()
    lock = nil
  }
}
