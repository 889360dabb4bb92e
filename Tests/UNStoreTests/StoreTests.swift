import Foundation
import TestSupport
import UNStore
import XCTest

final class StoreTests: XCTestCase {
  private var directory = ""

  override func setUp() {
    directory = NSTemporaryDirectory() + "unstore-\(UUID().uuidString)"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  private func row(_ table: String, _ app: String, _ key: String, _ text: String) -> StoredRow {
    StoredRow(table: table, app: app, key: key, value: Array(text.utf8))
  }

  private func exercise(_ store: StateStore) throws {
    try store.commit([
      .put(row("pending", "a", "r1", "one")), .put(row("pending", "a", "r2", "two")),
      .put(row("pending", "b", "r1", "other app")), .put(row("meta", "", "globals", "{}")),
    ])
    try store.commit([.put(row("pending", "a", "r1", "ONE")), .delete(table: "pending", app: "a", key: "r2")])
    try store.commit([.deleteApp("b")])
    try store.commit([])
    let rows = try store.loadAll()
    XCTAssertEqual(rows, [row("meta", "", "globals", "{}"), row("pending", "a", "r1", "ONE")])
    // Numbered rows: replaced by number, deleted by number only (a reset deletes the
    // app's numbered rows by their numbers, never by scanning for its name), loaded with
    // the number as key.
    let numbered = { (app: String, n: UInt64, text: String) in
      StoreChange.putNumbered(table: "queue", app: app, number: n, value: Array(text.utf8))
    }
    try store.commit([numbered("a", 7, "seven"), numbered("a", 8, "eight"), numbered("b", 9, "nine")])
    try store.commit([numbered("a", 7, "SEVEN"), .deleteNumbered(table: "queue", number: 8), .deleteApp("b")])
    XCTAssertEqual(
      try store.loadAll().filter { $0.table == "queue" },
      [row("queue", "a", "7", "SEVEN"), row("queue", "b", "9", "nine")])
    try store.commit([.deleteNumbered(table: "queue", number: 9)])
    XCTAssertEqual(try store.loadAll().filter { $0.table == "queue" }, [row("queue", "a", "7", "SEVEN")])
  }

  /// The log's frames are gathered in memory while a commit is written, and reach the
  /// log file before `commit` returns: a copy of the files taken then, as a crash of the
  /// process would leave them, holds every commit, one of many pages and one of a row.
  func testACommitIsInTheLogFileWhenCommitReturns() throws {
    let store = try SQLiteStore(directory: directory, durability: .normal)
    var changes: [StoreChange] = []
    for n in 1...2_000 as ClosedRange<UInt64> {
      changes.append(.putNumbered(table: "p", app: "a", number: n, value: Array(repeating: UInt8(n % 251), count: 900)))
    }
    try store.commit(changes)
    try store.commit([.put(row("t", "a", "k", "last"))])
    let copy = directory + "/copy"
    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
    for name in ["uncenter.db", "uncenter.db-wal"] {
      try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: copy + "/" + name)
    }
    store.close()
    let rows = try SQLiteStore(directory: copy, durability: .normal).loadAll()
    XCTAssertEqual(rows.count, 2_001)
    XCTAssertEqual(
      rows.first { $0.table == "p" && $0.key == "1999" }?.value, Array(repeating: UInt8(1_999 % 251), count: 900))
    XCTAssertEqual(rows.last, row("t", "a", "k", "last"))
  }

  /// `deleteApp` reaches the tables a previous run created, not only those this run wrote.
  func testDeleteAppAfterReopeningReachesEveryTable() throws {
    var store: SQLiteStore? = try SQLiteStore(directory: directory, durability: .normal)
    try store!.commit([
      .put(row("x", "b", "1", "x")), .put(row("y", "b", "2", "y")), .put(row("y", "a", "3", "kept")),
      .put(row("z", "", "g", "global")),
    ])
    store!.close()
    store = try SQLiteStore(directory: directory, durability: .normal)
    try store!.commit([.deleteApp("b")])
    XCTAssertEqual(try store!.loadAll(), [row("y", "a", "3", "kept"), row("z", "", "g", "global")])
  }

  func testMemoryStoreAppliesChangesInOrder() throws {
    try exercise(MemoryStore())
  }

  func testSQLiteStoreAppliesChangesAndSurvivesReopening() throws {
    let store = try SQLiteStore(directory: directory, durability: .normal)
    try exercise(store)
    store.close()
    let reopened = try SQLiteStore(directory: directory, durability: .full)
    XCTAssertEqual(try reopened.loadAll().map(\.key), ["globals", "r1", "7"])
    XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/uncenter.db"))
  }

  func testEmptyBlobsRoundTrip() throws {
    let store = try SQLiteStore(directory: directory, durability: .normal)
    try store.commit([.put(row("t", "a", "k", ""))])
    XCTAssertEqual(try store.loadAll(), [row("t", "a", "k", "")])
  }

  func testCorruptDatabaseIsAClearError() throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: directory + "/uncenter.db", contents: Data(repeating: 0x42, count: 8192))
    XCTAssertThrowsError(try SQLiteStore(directory: directory, durability: .normal)) { error in
      XCTAssertTrue("\(error)".contains("uncenter.db"), "\(error)")
    }
  }

  func testNewerSchemaIsRefused() throws {
    _ = try SQLiteStore(directory: directory, durability: .normal)
    try Python.run(
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version=99'); c.commit()",
      directory + "/uncenter.db")
    XCTAssertThrowsError(try SQLiteStore(directory: directory, durability: .normal)) { error in
      XCTAssertTrue("\(error)".contains("schema version 99"), "\(error)")
    }
  }

  /// Writes an older state database with Python's sqlite3 (`script` gets its path).
  private func makeDatabase(_ script: String) throws {
    let status = try Python.run(script, directory + "/uncenter.db")
    XCTAssertEqual(status, 0)
  }

  func testVersionOneDatabaseIsMigrated() throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let script = """
      import sqlite3, sys
      c = sqlite3.connect(sys.argv[1])
      c.execute("CREATE TABLE rows (tbl TEXT NOT NULL, app TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL, PRIMARY KEY (tbl, app, key)) WITHOUT ROWID")
      c.execute("INSERT INTO rows VALUES ('pending', 'com.a', 'x', CAST('{\\"request\\":{},\\"added\\":12}' AS BLOB))")
      c.execute("INSERT INTO rows VALUES ('app', 'com.a', '', X'5B5D')")
      c.execute("PRAGMA user_version=1")
      c.commit()
      """
    try makeDatabase(script)
    let pendingValue = Array(#"{"request":{},"added":12}"#.utf8)
    let store = try SQLiteStore(directory: directory, durability: .normal)
    // The pending row is now numbered by its addition sequence.
    XCTAssertEqual(
      try store.loadAll(),
      [
        StoredRow(table: "app", app: "com.a", key: "", value: Array("[]".utf8)),
        StoredRow(table: "pending", app: "com.a", key: "12", value: pendingValue),
      ])
    try store.commit([.deleteNumbered(table: "pending", number: 12)])
    XCTAssertEqual(try store.loadAll().count, 1)
    store.close()
    XCTAssertEqual(try SQLiteStore(directory: directory, durability: .normal).loadAll().count, 1)
  }

  /// Version 2 kept every numbered row in one table: each table's rows move to a tree of
  /// their own and read back the same, and later changes reach them there.
  func testVersionTwoDatabaseIsMigrated() throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let script = """
      import sqlite3, sys
      c = sqlite3.connect(sys.argv[1])
      c.execute("CREATE TABLE rows (tbl TEXT NOT NULL, app TEXT NOT NULL, key TEXT NOT NULL, value BLOB NOT NULL, PRIMARY KEY (tbl, app, key)) WITHOUT ROWID")
      c.execute("CREATE TABLE numbered (num INTEGER PRIMARY KEY, tbl TEXT NOT NULL, app TEXT NOT NULL, value BLOB NOT NULL)")
      c.execute("INSERT INTO rows VALUES ('app', 'com.a', '', X'5B5D')")
      c.execute("INSERT INTO numbered VALUES (12, 'pending', 'com.a', X'3132')")
      c.execute("INSERT INTO numbered VALUES (13, 'pending', 'com.b', X'3133')")
      c.execute("INSERT INTO numbered VALUES (4611686018427387905, 'events', 'com.a', X'6531')")
      c.execute("INSERT INTO numbered VALUES (4611686018427387906, 'it''s odd', 'com.a', X'6532')")
      c.execute("PRAGMA user_version=2")
      c.commit()
      """
    try makeDatabase(script)
    let expected = [
      StoredRow(table: "app", app: "com.a", key: "", value: Array("[]".utf8)),
      StoredRow(table: "events", app: "com.a", key: "4611686018427387905", value: Array("e1".utf8)),
      StoredRow(table: "it's odd", app: "com.a", key: "4611686018427387906", value: Array("e2".utf8)),
      StoredRow(table: "pending", app: "com.a", key: "12", value: Array("12".utf8)),
      StoredRow(table: "pending", app: "com.b", key: "13", value: Array("13".utf8)),
    ]
    let store = try SQLiteStore(directory: directory, durability: .normal)
    XCTAssertEqual(try store.loadAll(), expected)
    try store.commit([
      .deleteNumbered(table: "pending", number: 12),
      .putNumbered(table: "events", app: "com.a", number: 4_611_686_018_427_387_907, value: Array("e3".utf8)),
    ])
    store.close()
    let reopened = try SQLiteStore(directory: directory, durability: .normal)
    XCTAssertEqual(
      try reopened.loadAll().map(\.key),
      ["", "4611686018427387905", "4611686018427387907", "4611686018427387906", "13"])
    reopened.close()
  }

  func testStateDirectoryThatIsAFileIsRefused() throws {
    _ = FileManager.default.createFile(atPath: directory, contents: Data())
    XCTAssertThrowsError(try SQLiteStore(directory: directory, durability: .normal)) { error in
      XCTAssertTrue("\(error)".contains("is not a directory"), "\(error)")
    }
  }

  /// Long runs of numbered puts and deletes (written several rows per statement by the
  /// SQLite store) end in the same rows as the memory store's one-by-one changes: later
  /// changes of a number win, deletes (ranges of consecutive numbers, or any numbers)
  /// reach only their table, partial chunks and chunks of one app or several included
  /// (numbers are unique across tables, as the server assigns them).
  func testLongNumberedRunsMatchTheMemoryStore() throws {
    var changes: [StoreChange] = []
    for n in 1...100 as ClosedRange<UInt64> {
      changes.append(
        .putNumbered(table: n % 3 == 0 ? "e" : "p", app: "a\(n % 4)", number: n, value: Array("v\(n)".utf8)))
    }
    for n in 1...40 as ClosedRange<UInt64> {
      changes.append(.putNumbered(table: "p", app: "z", number: 200 + n, value: Array("w\(n)".utf8)))
    }
    // Full chunks of one app (bound once) and of two.
    for n in 1...40 as ClosedRange<UInt64> {
      changes.append(.putNumbered(table: "p", app: "m\(n % 2)", number: 300 + n, value: Array("m\(n)".utf8)))
    }
    for n in 1...70 as ClosedRange<UInt64> { changes.append(.deleteNumbered(table: "p", number: n)) }
    for n in 211...235 as ClosedRange<UInt64> { changes.append(.deleteNumbered(table: "p", number: n)) }
    for n in 60...99 as ClosedRange<UInt64> { changes.append(.deleteNumbered(table: "e", number: n)) }
    for n in stride(from: 202, through: 280, by: 2) as StrideThrough<UInt64> {
      changes.append(.deleteNumbered(table: "p", number: n))
    }
    changes.append(.putNumbered(table: "p", app: "a", number: 5, value: Array("back".utf8)))
    let sqlite = try SQLiteStore(directory: directory, durability: .normal)
    let memory = MemoryStore()
    try sqlite.commit(changes)
    try memory.commit(changes)
    let stored = try sqlite.loadAll()
    XCTAssertEqual(
      stored.sorted { ($0.table, $0.key) < ($1.table, $1.key) },
      try memory.loadAll().sorted { ($0.table, $0.key) < ($1.table, $1.key) })
    XCTAssertEqual(stored.count, 87)
    sqlite.close()
  }
}
