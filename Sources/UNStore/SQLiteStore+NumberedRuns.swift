import CSQLite

/// Numbered rows change in runs: with `--state`, each `scheduleLocal` adds a pending row
/// and an event row and pushes an old event out of the history, and a commit holds
/// hundreds of them.  A run is written `rowsPerStatement` rows per statement, so the
/// per-statement work (step, halt, reset) is paid once per chunk, and a chunk's bytes,
/// tables and apps are laid out in one reused buffer and bound without copies.
extension SQLiteStore {
  static let rowsPerStatement = 32

  static let putNumberedRows =
    "INSERT OR REPLACE INTO numbered (tbl, num, app, value) VALUES "
    + (0..<rowsPerStatement).map { "(?\(4 * $0 + 1), ?\(4 * $0 + 2), ?\(4 * $0 + 3), ?\(4 * $0 + 4))" }
    .joined(separator: ", ")
  static let deleteNumberedRange = "DELETE FROM numbered WHERE num BETWEEN ?2 AND ?3 AND tbl = ?1"
  static let deleteNumberedRows =
    "DELETE FROM numbered WHERE tbl = ?1 AND num IN ("
    + (0..<rowsPerStatement).map { "?\($0 + 2)" }.joined(separator: ", ") + ")"

  /// Where one row's parts sit in `scratch`.
  struct RowLayout {
    var number: UInt64
    var table: Range<Int>
    var app: Range<Int>
    var value: Range<Int>
  }

  /// Commits `changes` in order; consecutive numbered puts, and consecutive numbered
  /// deletes of one table, go as runs.
  func applyInRuns(_ changes: [StoreChange]) throws(StoreError) {
    var i = changes.startIndex
    while i < changes.endIndex {
      var end = i + 1
      switch changes[i] {
      case .putNumbered:
        while end < changes.endIndex, end - i < Self.rowsPerStatement, case .putNumbered = changes[end] { end += 1 }
        try putNumberedChunk(changes[i..<end])
      case .deleteNumbered(let table, let first):
        // Consecutive numbers (events leaving the history in order) go as one range.
        var last = first
        while end < changes.endIndex, case .deleteNumbered(let next, let n) = changes[end], next == table,
          n == last &+ 1
        {
          last = n
          end += 1
        }
        if end - i > 1 {
          try deleteNumberedRange(table, first, last)
          break
        }
        while end < changes.endIndex, end - i < Self.rowsPerStatement,
          case .deleteNumbered(let next, _) = changes[end], next == table
        {
          end += 1
        }
        try deleteNumberedChunk(table, changes[i..<end])
      default:
        try apply(changes[i])
      }
      i = end
    }
  }

  /// Up to `rowsPerStatement` puts: one statement when the chunk is full, else one per row.
  private func putNumberedChunk(_ chunk: ArraySlice<StoreChange>) throws(StoreError) {
    scratch.removeAll(keepingCapacity: true)
    layouts.removeAll(keepingCapacity: true)
    for change in chunk {
      guard case .putNumbered(let table, let app, let number, let value) = change else { continue }
      let t = append(table)
      let a = append(app)
      let start = scratch.count
      value.write(into: &scratch)
      layouts.append(RowLayout(number: number, table: t, app: a, value: start..<scratch.count))
    }
    // Bound as SQLITE_STATIC (nil): `scratch` is not touched until the steps are done.
    let full = layouts.count == Self.rowsPerStatement
    let rc = scratch.withUnsafeBytes { bytes -> Int32 in
      guard let base = bytes.baseAddress else { return SQLITE_MISUSE }
      func bind(_ stmt: OpaquePointer?, _ row: RowLayout, at first: Int32) {
        sqlite3_bind_text(
          stmt, first, base.advanced(by: row.table.lowerBound).assumingMemoryBound(to: CChar.self),
          Int32(row.table.count), nil)
        sqlite3_bind_int64(stmt, first + 1, Int64(bitPattern: row.number))
        sqlite3_bind_text(
          stmt, first + 2, base.advanced(by: row.app.lowerBound).assumingMemoryBound(to: CChar.self),
          Int32(row.app.count), nil)
        sqlite3_bind_blob(stmt, first + 3, base.advanced(by: row.value.lowerBound), Int32(row.value.count), nil)
      }
      if full {
        for (k, row) in layouts.enumerated() { bind(putNumberedRowsStatement, row, at: Int32(4 * k + 1)) }
        let rc = sqlite3_step(putNumberedRowsStatement)
        sqlite3_reset(putNumberedRowsStatement)
        return rc
      }
      for row in layouts {
        bind(putNumberedStatement, row, at: 1)
        let rc = sqlite3_step(putNumberedStatement)
        sqlite3_reset(putNumberedStatement)
        if rc != SQLITE_DONE { return rc }
      }
      return SQLITE_DONE
    }
    guard rc == SQLITE_DONE else { throw failure("writing the state") }
  }

  /// Up to `rowsPerStatement` deletes from one table.
  private func deleteNumberedChunk(_ table: String, _ chunk: ArraySlice<StoreChange>) throws(StoreError) {
    let full = chunk.count == Self.rowsPerStatement
    let stmt = full ? deleteNumberedRowsStatement : deleteNumberedStatement
    let rc = table.withCString { t -> Int32 in
      sqlite3_bind_text(stmt, 1, t, -1, nil)
      var k: Int32 = 2
      for change in chunk {
        guard case .deleteNumbered(_, let number) = change else { continue }
        sqlite3_bind_int64(stmt, k, Int64(bitPattern: number))
        if full {
          k += 1
          continue
        }
        let rc = sqlite3_step(stmt)
        sqlite3_reset(stmt)
        if rc != SQLITE_DONE { return rc }
      }
      guard full else { return SQLITE_DONE }
      let rc = sqlite3_step(stmt)
      sqlite3_reset(stmt)
      return rc
    }
    guard rc == SQLITE_DONE else { throw failure("writing the state") }
  }

  /// Deletes the table's rows numbered `first` through `last`.
  private func deleteNumberedRange(_ table: String, _ first: UInt64, _ last: UInt64) throws(StoreError) {
    let stmt = deleteNumberedRangeStatement
    let rc = table.withCString { t -> Int32 in
      sqlite3_bind_text(stmt, 1, t, -1, nil)
      sqlite3_bind_int64(stmt, 2, Int64(bitPattern: first))
      sqlite3_bind_int64(stmt, 3, Int64(bitPattern: last))
      let rc = sqlite3_step(stmt)
      sqlite3_reset(stmt)
      return rc
    }
    guard rc == SQLITE_DONE else { throw failure("writing the state") }
  }

  /// Appends a string's UTF-8 to `scratch`; returns where it is.
  private func append(_ text: String) -> Range<Int> {
    let start = scratch.count
    var copy = text
    copy.withUTF8 { scratch.append(contentsOf: $0) }
    return start..<scratch.count
  }
}
