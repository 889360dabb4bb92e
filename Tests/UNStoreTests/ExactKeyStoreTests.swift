import Foundation
import UNStore
import XCTest

/// A row's table, app and key are kept as their exact bytes: two distinct keys never meet
/// in one row, whatever they contain (U+0000, the separators a joined id would use, or
/// two spellings of one text that Swift's `String ==` calls equal).
final class ExactKeyStoreTests: XCTestCase {
  private var directory = ""

  override func setUp() {
    directory = NSTemporaryDirectory() + "unstore-exact-\(UUID().uuidString)"
  }

  override func tearDown() {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Apps that must stay apart: a NUL inside or at the end, what comes before it, NFC and
  /// NFD spellings of one name, and U+0001 (the memory store's mark of numbered rows).
  private let apps = [
    "com.victim", "com.victim\u{0}x", "com.victim\u{0}", "com.caf\u{E9}", "com.cafe\u{301}", "\u{1}", "",
  ]
  private let keys = ["k", "k\u{0}", "k\u{0}x", "caf\u{E9}", "cafe\u{301}", ""]

  /// A row as bytes, so that comparisons are exact (`String ==` is canonical equivalence).
  private func bytes(_ row: StoredRow) -> [UInt8] {
    Array(row.table.utf8) + [0xFF] + Array(row.app.utf8) + [0xFF] + Array(row.key.utf8) + [0xFF] + row.value
  }

  private func assertRows(
    _ store: StateStore, _ expected: [StoredRow], file: StaticString = #filePath, line: UInt = #line
  )
    throws
  {
    let loaded = try store.loadAll().map(bytes).sorted { $0.lexicographicallyPrecedes($1) }
    let want = expected.map(bytes).sorted { $0.lexicographicallyPrecedes($1) }
    XCTAssertEqual(loaded.count, want.count, file: file, line: line)
    XCTAssertEqual(loaded, want, file: file, line: line)
  }

  private func row(_ table: String, _ app: String, _ key: String, _ value: String) -> StoredRow {
    StoredRow(table: table, app: app, key: key, value: Array(value.utf8))
  }

  private func exercise(_ store: StateStore, reopen: () throws -> StateStore) throws {
    var expected: [StoredRow] = []
    var changes: [StoreChange] = []
    for (i, app) in apps.enumerated() {
      expected.append(row("app", app, "", "owner \(i)"))
      for (j, key) in keys.enumerated() { expected.append(row("delivered", app, key, "n \(i) \(j)")) }
    }
    // Joined with NUL separators, these two would be one id.
    expected.append(row("t", "a\u{0}b", "c", "first"))
    expected.append(row("t", "a", "b\u{0}c", "second"))
    changes = expected.map { .put($0) }
    for (i, app) in apps.enumerated() {
      changes.append(.putNumbered(table: "pending", app: app, number: UInt64(i + 1), value: Array("p \(i)".utf8)))
      expected.append(row("pending", app, "\(i + 1)", "p \(i)"))
    }
    try store.commit(changes)
    try assertRows(store, expected)

    // A delete reaches its own row only.
    try store.commit([.delete(table: "delivered", app: "com.victim", key: "k")])
    expected.removeAll { bytes($0) == bytes(row("delivered", "com.victim", "k", "n 0 0")) }
    try store.commit([.delete(table: "delivered", app: "com.caf\u{E9}", key: "cafe\u{301}")])
    expected.removeAll { bytes($0) == bytes(row("delivered", "com.caf\u{E9}", "cafe\u{301}", "n 3 4")) }
    try assertRows(store, expected)

    // A reset of one app leaves the apps whose names begin the same or are spelled alike.
    try store.commit([.deleteApp("com.victim"), .deleteApp("com.cafe\u{301}")])
    expected.removeAll {
      $0.table != "pending"
        && (Array($0.app.utf8) == Array("com.victim".utf8)
          || Array($0.app.utf8) == Array("com.cafe\u{301}".utf8))
    }
    try assertRows(store, expected)

    let reopened = try reopen()
    try assertRows(reopened, expected)
  }

  func testSQLiteStoreKeepsKeysExact() throws {
    var store: SQLiteStore? = try SQLiteStore(directory: directory, durability: .normal)
    try exercise(store!) {
      store!.close()
      store = try SQLiteStore(directory: directory, durability: .normal)
      return store!
    }
  }

  func testMemoryStoreKeepsKeysExact() throws {
    let store = MemoryStore()
    try exercise(store) { store }
  }

  /// A run of numbered rows copies its app's name once: the next row's app is the same
  /// name only if its bytes are.
  func testARowBufferKeepsEachAppsBytes() throws {
    var list = RowBuffer()
    list.putNumbered(table: "pending", app: "com.caf\u{E9}", number: 1) { $0 += Array("a".utf8) }
    list.putNumbered(table: "pending", app: "com.cafe\u{301}", number: 2) { $0 += Array("b".utf8) }
    list.putNumbered(table: "pending", app: "com.victim\u{0}x", number: 3) { $0 += Array("c".utf8) }
    let apps = list.changes.compactMap { change -> [UInt8]? in
      if case .putNumbered(_, let app, _, _) = change { return Array(app.utf8) }
      return nil
    }
    XCTAssertEqual(apps, [Array("com.caf\u{E9}".utf8), Array("com.cafe\u{301}".utf8), Array("com.victim\u{0}x".utf8)])
    let store = try SQLiteStore(directory: directory, durability: .normal)
    try store.commit(list)
    try assertRows(
      store,
      [
        row("pending", "com.caf\u{E9}", "1", "a"), row("pending", "com.cafe\u{301}", "2", "b"),
        row("pending", "com.victim\u{0}x", "3", "c"),
      ])
  }
}
