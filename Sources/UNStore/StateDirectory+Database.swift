import CSQLite
import Foundation

/// The database in the state directory: present, or made new only where no state was.
///
/// SQLite takes a missing or empty file for an empty database and starts writing a new
/// state into it, over the log and beside the attachment copies of the old one.  So a
/// database that is empty (0 bytes), or missing while the directory holds uncenterd's
/// other state files (its log, index or journal, `uncenter.lock`, `uncenter.reserve`, `attachments/`), is
/// refused.  For that a database the daemon made is never empty: a new one is made as
/// `uncenter.db.new` (made before the lock, so that it marks a start that was cut short)
/// and renamed into place once SQLite has written its first page, so a start interrupted
/// at any instant leaves either no database, beside that mark, or a complete one.
extension StateDirectory {
  /// Checks what stands in place of the database, takes the lock, checks again (another
  /// daemon may have made it meanwhile) and makes a new database where there was none.
  /// Returns the lock, held for as long as the store is open.
  func openDatabase() throws(StoreError) -> StateDirectoryLock {
    if try !hasDatabase() {
      // The mark of a new state being made; it becomes the database.
      let mark = openat(fd, Self.draft, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
      guard mark >= 0 else { throw StoreError("cannot create \(display(Self.draft)): \(errorText())") }
      close(mark)
    }
    let lock = try StateDirectoryLock(directory: path)
    if try hasDatabase() {
      for name in [Self.draft] + Self.sqliteSuffixes.map({ Self.draft + $0 }) { unlinkat(fd, name, 0) }
    } else {
      try makeDatabase()
    }
    return lock
  }

  /// True when the database is there (and not empty); false when there is none and
  /// nothing says there was; throws when it is empty, or gone beside other state files.
  private func hasDatabase() throws(StoreError) -> Bool {
    var st = stat()
    if fstatat(fd, Self.database, &st, AT_SYMLINK_NOFOLLOW) == 0 {
      guard st.st_size > 0 else {
        throw Self.unusable(
          database: display(Self.database), in: path,
          "is empty (0 bytes): it was truncated, and a new state would be written over what is left of the old one")
      }
      return true
    }
    guard errno == ENOENT else { throw StoreError("cannot stat \(display(Self.database)): \(errorText())") }
    var remains = (Self.companions + [Self.attachments, Self.reserveName]).filter { exists($0) }
    if exists(Self.lockName) && !exists(Self.draft) { remains.insert(Self.lockName, at: 0) }
    guard remains.isEmpty else {
      throw Self.unusable(
        database: display(Self.database), in: path,
        "is missing, while the directory holds uncenterd's other state files (\(remains.joined(separator: ", "))): "
          + "it was moved or deleted, and a new state would be started beside them")
    }
    return false
  }

  private func exists(_ name: String) -> Bool {
    var st = stat()
    return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0
  }

  /// Makes `uncenter.db.new` an empty database in WAL mode (SQLite writes its first page
  /// then), syncs it and renames it to `uncenter.db`.  What an interrupted attempt left
  /// is discarded first: nothing was stored in it.
  private func makeDatabase() throws(StoreError) {
    for suffix in Self.sqliteSuffixes { unlinkat(fd, Self.draft + suffix, 0) }
    let file = openat(fd, Self.draft, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard file >= 0 else { throw StoreError("cannot create \(display(Self.draft)): \(errorText())") }
    defer { close(file) }
    // 0600 whatever the umask: SQLite gives the log and index it makes later the
    // database's own mode.
    guard fchmod(file, 0o600) == 0, ftruncate(file, 0) == 0 else {
      throw StoreError("cannot prepare \(display(Self.draft)): \(errorText())")
    }
    var db: OpaquePointer?
    let opened = sqlite3_open_v2(display(Self.draft), &db, SQLITE_OPEN_READWRITE, nil)
    var mode: OpaquePointer?
    let ok =
      opened == SQLITE_OK && sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &mode, nil) == SQLITE_OK
      && sqlite3_step(mode) == SQLITE_ROW && sqlite3_column_text(mode, 0).map { String(cString: $0) } == "wal"
    let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
    sqlite3_finalize(mode)
    sqlite3_close(db)
    guard ok else { throw StoreError("cannot make a new database \(display(Self.draft)): \(message)") }
    guard fsync(file) == 0, renameat(fd, Self.draft, fd, Self.database) == 0, fsync(fd) == 0 else {
      throw StoreError("cannot put the new database in place as \(display(Self.database)): \(errorText())")
    }
  }

  /// A database that cannot be used as it is: the file, its directory, and what the
  /// operator can do about it.
  public static func unusable(database: String, in directory: String, _ problem: String) -> StoreError {
    StoreError(
      "the database \(database) in the state directory \(directory) \(problem). Refusing to start: restore the "
        + "directory from a backup (with uncenterd stopped), or move it aside (mv \(directory) \(directory).old) "
        + "to start with a new state")
  }

  /// `unusable` for the database at `database`, in the directory that holds it.
  public static func unusable(database: String, _ problem: String) -> StoreError {
    unusable(database: database, in: (database as NSString).deletingLastPathComponent, problem)
  }
}
