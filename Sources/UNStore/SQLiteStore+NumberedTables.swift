import CSQLite

/// Each numbered table (`pending`, `events`) is a B-tree of its own, `"numbered:<name>"`,
/// keyed by the row's number.  Rows arrive in number order in each, so an insert appends
/// at the right edge of its tree, where SQLite splits off a new last page cheaply; in
/// one shared tree (schema version 2) the pending rows went in the middle, below the
/// events' higher numbers, and filling a page there rebalanced it with its neighbours,
/// the deletes of old events at the other side of that boundary too.
final class NumberedTable {
  let putOne: OpaquePointer?
  /// `rowsPerStatement` rows at a time.
  let putRows: OpaquePointer?
  /// `rowsPerStatement` rows of one app, which is bound once (`?1`): the usual chunk, as
  /// a burst of requests is mostly one app's.
  let putRowsOfOneApp: OpaquePointer?
  let deleteOne: OpaquePointer?
  let deleteRows: OpaquePointer?
  let deleteRange: OpaquePointer?

  init(_ name: String, prepare: (String) throws(StoreError) -> OpaquePointer?) throws(StoreError) {
    let t = SQLiteStore.numberedTable(name)
    let n = SQLiteStore.rowsPerStatement
    putOne = try prepare("INSERT OR REPLACE INTO \(t) (num, app, value) VALUES (?1, ?2, ?3)")
    putRows = try prepare(
      "INSERT OR REPLACE INTO \(t) (num, app, value) VALUES "
        + (0..<n).map { "(?\(3 * $0 + 1), ?\(3 * $0 + 2), ?\(3 * $0 + 3))" }.joined(separator: ", "))
    putRowsOfOneApp = try prepare(
      "INSERT OR REPLACE INTO \(t) (num, app, value) VALUES "
        + (0..<n).map { "(?\(2 * $0 + 2), ?1, ?\(2 * $0 + 3))" }.joined(separator: ", "))
    deleteOne = try prepare("DELETE FROM \(t) WHERE num = ?1")
    deleteRows = try prepare(
      "DELETE FROM \(t) WHERE num IN (" + (0..<n).map { "?\($0 + 1)" }.joined(separator: ", ") + ")")
    deleteRange = try prepare("DELETE FROM \(t) WHERE num BETWEEN ?1 AND ?2")
  }

  func finalize() {
    for stmt in [putOne, putRows, putRowsOfOneApp, deleteOne, deleteRows, deleteRange] { sqlite3_finalize(stmt) }
  }
}

extension SQLiteStore {
  static let numberedPrefix = "numbered:"

  /// The SQLite table of numbered table `name`, as a quoted identifier.
  static func numberedTable(_ name: String) -> String {
    "\"" + (numberedPrefix + name).replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

  static func createNumberedTable(_ name: String) -> String {
    "CREATE TABLE IF NOT EXISTS \(numberedTable(name)) (num INTEGER PRIMARY KEY, app TEXT NOT NULL, value BLOB NOT NULL)"
  }

  /// Version 2 kept every numbered row in one table, `numbered`, with its table's name in a
  /// column: each table's rows move to their own tree.  Inside the caller's transaction.
  func splitSharedNumberedTable() throws(StoreError) {
    var names: [String] = []
    let stmt = try prepare("SELECT DISTINCT tbl FROM numbered")
    var rc = sqlite3_step(stmt)
    while rc == SQLITE_ROW {
      names.append(Self.text(stmt, 0))
      rc = sqlite3_step(stmt)
    }
    sqlite3_finalize(stmt)
    guard rc == SQLITE_DONE else { throw failure("listing the numbered tables") }
    for name in names {
      try exec(Self.createNumberedTable(name))
      try exec(
        "INSERT INTO \(Self.numberedTable(name)) (num, app, value) SELECT num, app, value FROM numbered WHERE tbl = \(Self.literal(name))"
      )
    }
    try exec("DROP TABLE numbered")
  }

  /// The names of the numbered tables the file holds.
  func numberedTableNames() throws(StoreError) -> [String] {
    let stmt = try prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 9) = 'numbered:'")
    defer { sqlite3_finalize(stmt) }
    var names: [String] = []
    while true {
      let rc = sqlite3_step(stmt)
      if rc == SQLITE_DONE { return names }
      guard rc == SQLITE_ROW else { throw failure("listing the tables") }
      let name = Self.text(stmt, 0)
      names.append(String(name.dropFirst(Self.numberedPrefix.count)))
    }
  }
}
