import CSQLite

extension SQLiteStore {
  /// Brings a file of schema `version` to the current one, each step in one transaction
  /// (a new file gets the current schema); a newer version is refused untouched.
  func migrate(from version: Int32) throws(StoreError) {
    switch version {
    case 0:
      try exec("BEGIN")
      try exec(Self.createRows)
      try exec("PRAGMA user_version=\(Self.schemaVersion)")
      try exec("COMMIT")
    case 1:
      // Version 1 kept pending requests among the keyed rows: they move to the numbered
      // table, numbered by the addition sequence their record holds, in one transaction.
      try exec("BEGIN")
      for statement in Self.createNumbered { try exec(statement) }
      try exec(
        "INSERT INTO numbered (num, tbl, app, value) SELECT json_extract(CAST(value AS TEXT), '$.added'), tbl, app, value FROM rows WHERE tbl = 'pending'"
      )
      try exec("DELETE FROM rows WHERE tbl = 'pending'")
      try splitSharedNumberedTable()
      try exec("PRAGMA user_version=\(Self.schemaVersion)")
      try exec("COMMIT")
    case 2:
      try exec("BEGIN")
      try splitSharedNumberedTable()
      try exec("PRAGMA user_version=\(Self.schemaVersion)")
      try exec("COMMIT")
    case 3, 4, 5:
      // Its rows are read as they are: only the number changes (the server rewrites the
      // event rows of version 4 and earlier as runs when it loads them, and reads the
      // longer pending rows of version 5 and earlier).
      try exec("PRAGMA user_version=\(Self.schemaVersion)")
    case Self.schemaVersion:
      break
    default:
      throw StoreError(
        "\(path) has schema version \(version); this uncenterd understands up to \(Self.schemaVersion) (refusing to touch it)"
      )
    }
  }
}
