import CSQLite
import Foundation

/// Numbered rows change in runs: with `--state`, each `scheduleLocal` adds a pending row
/// and an event row and pushes an old event out of the history, and a commit holds
/// hundreds of them.  A run is written `rowsPerStatement` rows per statement, so the
/// per-statement work (step, halt, reset) is paid once per chunk, and every row's app
/// and value are bound from the commit's one buffer (`RowBuffer.bytes`) without copies.
/// Each numbered table has its own statements (`NumberedTable`).
extension SQLiteStore {
  static let rowsPerStatement = 32

  /// Applies `list` in order; consecutive numbered puts, and consecutive numbered
  /// deletes of one table, go as runs.
  func applyInRuns(_ list: RowBuffer) throws(StoreError) {
    var storeFailure: StoreError?
    // The last run's table: runs of one table follow one another.
    var current: (name: Range<Int>, table: NumberedTable)?
    // Bound as SQLITE_STATIC (nil): `list.bytes` is not touched until the steps are done.
    let rc = list.bytes.withUnsafeBytes { bytes -> Int32 in
      // An empty buffer has no address; every range in it is then empty, and SQLite reads
      // no byte of an empty text or blob.
      let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
      let entries = list.entries
      func table(_ name: Range<Int>) -> NumberedTable? {
        if let current, same(current.name, name, base) { return current.table }
        do throws(StoreError) {
          let bytes = UnsafeRawBufferPointer(start: base + name.lowerBound, count: name.count)
          let table = try numberedTable(named: String(decoding: bytes, as: UTF8.self))
          current = (name, table)
          return table
        } catch {
          storeFailure = error
          return nil
        }
      }
      var i = 0
      while i < entries.count {
        var end = i + 1
        let rc: Int32
        switch entries[i].kind {
        case .put:
          let name = entries[i].table
          while end < entries.count, end - i < Self.rowsPerStatement, entries[end].kind == .put,
            same(entries[end].table, name, base)
          {
            end += 1
          }
          guard let t = table(name) else { return SQLITE_ERROR }
          rc = putNumberedChunk(t, entries[i..<end], base)
        case .delete:
          guard let t = table(entries[i].table) else { return SQLITE_ERROR }
          // Consecutive numbers (events leaving the history in order) go as one range.
          let name = entries[i].table
          var last = entries[i].number
          while end < entries.count, entries[end].kind == .delete, entries[end].number == last &+ 1,
            same(entries[end].table, name, base)
          {
            last = entries[end].number
            end += 1
          }
          if end - i > 1 {
            rc = deleteNumberedRange(t, entries[i].number, last)
            break
          }
          while end < entries.count, end - i < Self.rowsPerStatement, entries[end].kind == .delete,
            same(entries[end].table, name, base)
          {
            end += 1
          }
          rc = deleteNumberedChunk(t, entries[i..<end])
        case .keyed:
          do throws(StoreError) {
            try apply(list.keyed[Int(entries[i].number)])
            rc = SQLITE_DONE
          } catch {
            storeFailure = error
            return SQLITE_ERROR
          }
        }
        if rc != SQLITE_DONE { return rc }
        i = end
      }
      return SQLITE_DONE
    }
    if let storeFailure { throw storeFailure }
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

  /// Up to `rowsPerStatement` puts: one statement when the chunk is full (the app bound
  /// once when all its rows are one app's), else one per row.
  private func putNumberedChunk(
    _ table: NumberedTable, _ chunk: ArraySlice<RowBuffer.Entry>, _ base: UnsafeRawPointer
  ) -> Int32 {
    func bind(_ stmt: OpaquePointer?, _ row: RowBuffer.Entry, at first: Int32) {
      sqlite3_bind_int64(stmt, first, Int64(bitPattern: row.number))
      text(stmt, first + 1, row.app, base)
      sqlite3_bind_blob(stmt, first + 2, base + row.value.lowerBound, Int32(row.value.count), nil)
    }
    if chunk.count == Self.rowsPerStatement, let app = chunk.first?.app,
      chunk.allSatisfy({ same($0.app, app, base) })
    {
      let stmt = table.putRowsOfOneApp
      text(stmt, 1, app, base)
      var k: Int32 = 2
      for row in chunk {
        sqlite3_bind_int64(stmt, k, Int64(bitPattern: row.number))
        sqlite3_bind_blob(stmt, k + 1, base + row.value.lowerBound, Int32(row.value.count), nil)
        k += 2
      }
      let rc = sqlite3_step(stmt)
      sqlite3_reset(stmt)
      return rc
    }
    if chunk.count == Self.rowsPerStatement {
      var k: Int32 = 1
      for row in chunk {
        bind(table.putRows, row, at: k)
        k += 3
      }
      let rc = sqlite3_step(table.putRows)
      sqlite3_reset(table.putRows)
      return rc
    }
    for row in chunk {
      bind(table.putOne, row, at: 1)
      let rc = sqlite3_step(table.putOne)
      sqlite3_reset(table.putOne)
      if rc != SQLITE_DONE { return rc }
    }
    return SQLITE_DONE
  }

  /// Up to `rowsPerStatement` deletes from one table.
  private func deleteNumberedChunk(_ table: NumberedTable, _ chunk: ArraySlice<RowBuffer.Entry>) -> Int32 {
    let full = chunk.count == Self.rowsPerStatement
    let stmt = full ? table.deleteRows : table.deleteOne
    var k: Int32 = 1
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
  private func deleteNumberedRange(_ table: NumberedTable, _ first: UInt64, _ last: UInt64) -> Int32 {
    let stmt = table.deleteRange
    sqlite3_bind_int64(stmt, 1, Int64(bitPattern: first))
    sqlite3_bind_int64(stmt, 2, Int64(bitPattern: last))
    let rc = sqlite3_step(stmt)
    sqlite3_reset(stmt)
    return rc
  }
}
