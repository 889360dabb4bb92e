import CSQLite
import Foundation

/// Numbered rows change in runs: with `--state`, each `scheduleLocal` adds a pending row
/// and an event row and pushes an old event out of the history, and a commit holds
/// hundreds of them.  A run is written `rowsPerStatement` rows per statement, so the
/// per-statement work (step, halt, reset) is paid once per chunk, and every row's table,
/// app and value are bound from the commit's one buffer (`ChangeList.bytes`) without
/// copies.
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

  /// Applies `list` in order; consecutive numbered puts, and consecutive numbered
  /// deletes of one table, go as runs.
  func applyInRuns(_ list: ChangeList) throws(StoreError) {
    var keyedFailure: StoreError?
    // Bound as SQLITE_STATIC (nil): `list.bytes` is not touched until the steps are done.
    let rc = list.bytes.withUnsafeBytes { bytes -> Int32 in
      // An empty buffer has no address; every range in it is then empty, and SQLite reads
      // no byte of an empty text or blob.
      let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
      let entries = list.entries
      var i = 0
      while i < entries.count {
        var end = i + 1
        let rc: Int32
        switch entries[i].kind {
        case .put:
          while end < entries.count, end - i < Self.rowsPerStatement, entries[end].kind == .put { end += 1 }
          rc = putNumberedChunk(entries[i..<end], base)
        case .delete:
          // Consecutive numbers (events leaving the history in order) go as one range.
          let table = entries[i].table
          var last = entries[i].number
          while end < entries.count, entries[end].kind == .delete, entries[end].number == last &+ 1,
            same(entries[end].table, table, base)
          {
            last = entries[end].number
            end += 1
          }
          if end - i > 1 {
            rc = deleteNumberedRange(table, entries[i].number, last, base)
            break
          }
          while end < entries.count, end - i < Self.rowsPerStatement, entries[end].kind == .delete,
            same(entries[end].table, table, base)
          {
            end += 1
          }
          rc = deleteNumberedChunk(table, entries[i..<end], base)
        case .keyed:
          do throws(StoreError) {
            try apply(list.keyed[Int(entries[i].number)])
            rc = SQLITE_DONE
          } catch {
            keyedFailure = error
            return SQLITE_ERROR
          }
        }
        if rc != SQLITE_DONE { return rc }
        i = end
      }
      return SQLITE_DONE
    }
    if let keyedFailure { throw keyedFailure }
    guard rc == SQLITE_DONE else { throw failure("writing the state") }
  }

  /// Whether two names in the buffer are the same text (runs share one copy: usually the
  /// same range).
  private func same(_ a: Range<Int>, _ b: Range<Int>, _ base: UnsafeRawPointer) -> Bool {
    a == b || (a.count == b.count && memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0)
  }

  private func text(_ stmt: OpaquePointer?, _ index: Int32, _ range: Range<Int>, _ base: UnsafeRawPointer) {
    sqlite3_bind_text(
      stmt, index, (base + range.lowerBound).assumingMemoryBound(to: CChar.self), Int32(range.count), nil)
  }

  /// Up to `rowsPerStatement` puts: one statement when the chunk is full, else one per row.
  private func putNumberedChunk(_ chunk: ArraySlice<ChangeList.Entry>, _ base: UnsafeRawPointer) -> Int32 {
    func bind(_ stmt: OpaquePointer?, _ row: ChangeList.Entry, at first: Int32) {
      text(stmt, first, row.table, base)
      sqlite3_bind_int64(stmt, first + 1, Int64(bitPattern: row.number))
      text(stmt, first + 2, row.app, base)
      sqlite3_bind_blob(stmt, first + 3, base + row.value.lowerBound, Int32(row.value.count), nil)
    }
    if chunk.count == Self.rowsPerStatement {
      var k: Int32 = 1
      for row in chunk {
        bind(putNumberedRowsStatement, row, at: k)
        k += 4
      }
      let rc = sqlite3_step(putNumberedRowsStatement)
      sqlite3_reset(putNumberedRowsStatement)
      return rc
    }
    for row in chunk {
      bind(putNumberedStatement, row, at: 1)
      let rc = sqlite3_step(putNumberedStatement)
      sqlite3_reset(putNumberedStatement)
      if rc != SQLITE_DONE { return rc }
    }
    return SQLITE_DONE
  }

  /// Up to `rowsPerStatement` deletes from one table.
  private func deleteNumberedChunk(
    _ table: Range<Int>, _ chunk: ArraySlice<ChangeList.Entry>, _ base: UnsafeRawPointer
  ) -> Int32 {
    let full = chunk.count == Self.rowsPerStatement
    let stmt = full ? deleteNumberedRowsStatement : deleteNumberedStatement
    text(stmt, 1, table, base)
    var k: Int32 = 2
    for change in chunk {
      sqlite3_bind_int64(stmt, k, Int64(bitPattern: change.number))
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

  /// Deletes the table's rows numbered `first` through `last`.
  private func deleteNumberedRange(
    _ table: Range<Int>, _ first: UInt64, _ last: UInt64, _ base: UnsafeRawPointer
  ) -> Int32 {
    let stmt = deleteNumberedRangeStatement
    text(stmt, 1, table, base)
    sqlite3_bind_int64(stmt, 2, Int64(bitPattern: first))
    sqlite3_bind_int64(stmt, 3, Int64(bitPattern: last))
    let rc = sqlite3_step(stmt)
    sqlite3_reset(stmt)
    return rc
  }
}
