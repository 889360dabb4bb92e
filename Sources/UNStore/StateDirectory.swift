import Foundation

/// The state directory, checked and made private before the store opens anything in it,
/// as PostgreSQL checks its data directory: it must belong to the user the daemon runs
/// as, and no one else may write it (whoever could may have replaced its files); the
/// daemon then keeps it and everything in it readable by that user only, 0700 for
/// directories and 0600 for files, whatever the umask.
///
/// - A directory that others may only read or search (0755, 0750, ...) is tightened to
///   0700, and so is every directory and regular file under it: an operator's `mkdir`
///   under the usual umask makes 0755, and older daemons left their files 0644.
///   Nothing is lost by closing them, and refusing would stop a service that was safe
///   to run; `tightened` says what changed, for one log line.
/// - `--state` naming a symbolic link (systemd's `DynamicUser=` makes `/var/lib/uncenter`
///   one) is followed: the directory it points to is what is checked.  Inside, links
///   are never followed and never changed (the daemon makes none); the files it opens by
///   name (`uncenter.db`, its log, index and journal, `uncenter.lock`) must be regular
///   files there, and a link in their place is refused.  Sockets and other special
///   files are left alone.
/// - An entry that belongs to another user is refused: the daemon cannot make it private.
///
/// Then `openDatabase` (`StateDirectory+Database.swift`) refuses a database that is
/// gone or empty beside the daemon's other state files, and makes a new one atomically.
public final class StateDirectory {
  /// What was made private at start-up: the directory's mode before, and how many
  /// entries under it changed.
  public struct Tightening: Sendable, Equatable {
    /// The directory's own mode before it was set to 0700; nil when it was 0700.
    public var directoryMode: mode_t?
    /// Directories and files under it set to 0700/0600.
    public var entries = 0
    public var isEmpty: Bool { directoryMode == nil && entries == 0 }
  }

  static let database = "uncenter.db"
  static let lockName = "uncenter.lock"
  /// Room set aside for a full disk (`DiskReserve`).
  static let reserveName = "uncenter.reserve"
  /// Where the server keeps its attachment copies (`AttachmentStore`).
  static let attachments = "attachments"
  /// How SQLite names a database's log, index and rollback journal after it.
  static let sqliteSuffixes = ["-wal", "-shm", "-journal"]
  static let companions = sqliteSuffixes.map { database + $0 }
  /// A new database is made under this name and renamed to `database` once it is one.
  static let draft = database + ".new"
  /// The names the daemon opens by name: regular files, never links.
  static let ownFiles: Set<String> = Set(
    [database, lockName, reserveName, draft] + companions + sqliteSuffixes.map { draft + $0 })

  /// As given (`--state`), for messages and for the paths the store opens.
  let path: String
  /// The directory, opened once: every check below is relative to it.
  let fd: Int32
  public private(set) var tightened = Tightening()
  private let uid = geteuid()

  /// Makes the directory when there is none (0700, and its missing parents), then checks
  /// its owner and mode and makes what it holds private; throws the refusal.
  init(_ path: String) throws(StoreError) {
    self.path = path
    var st = stat()
    if lstat(path, &st) != 0, errno == ENOENT {
      do {
        try FileManager.default.createDirectory(
          atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw StoreError("cannot create the state directory \(path): \(error.localizedDescription)")
      }
    }
    fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOTDIR { throw StoreError("the state directory \(path) is not a directory") }
      throw StoreError("cannot open the state directory \(path): \(String(cString: strerror(errno)))")
    }
    do {
      try checkDirectory()
      try tighten(fd, under: "", depth: 0)
    } catch {
      close(fd)
      throw error
    }
  }

  deinit { close(fd) }

  /// `name` in the directory, for messages.
  func display(_ relative: String) -> String { path.hasSuffix("/") ? path + relative : path + "/" + relative }

  private func checkDirectory() throws(StoreError) {
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw StoreError("cannot stat the state directory \(path): \(errorText())") }
    let mode = st.st_mode & 0o7777
    let foreign = st.st_uid != uid
    let writable = mode & 0o022 != 0
    if foreign || writable {
      var problems: [String] = []
      var fixes: [String] = []
      if foreign {
        problems.append("belongs to uid \(st.st_uid), not to uid \(uid) as which uncenterd runs")
        fixes.append("chown -R \(uid) \(path) (or run uncenterd as uid \(st.st_uid))")
      }
      if writable {
        problems.append("may be written by its group or by others (mode \(Self.octal(mode)))")
        fixes.append("chmod 0700 \(path)")
      }
      throw StoreError(
        "the state directory \(path)\(resolvedNote()) \(problems.joined(separator: ", and ")): refusing to use it, "
          + "another user who can write it could have replaced its files; check what it holds, then "
          + fixes.joined(separator: " and "))
    }
    if mode != 0o700 {
      guard fchmod(fd, 0o700) == 0 else {
        throw StoreError("cannot make the state directory \(path) private (chmod 0700): \(errorText())")
      }
      tightened.directoryMode = mode
    }
  }

  /// " (a link to /target)" when `path` is a symbolic link, so that the message names
  /// the directory that was checked.
  private func resolvedNote() -> String {
    var st = stat()
    guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK, let real = realpath(path, nil) else { return "" }
    defer { free(real) }
    return " (a link to \(String(cString: real)))"
  }

  /// Sets every directory under `directory` to 0700 and every regular file to 0600,
  /// never following a link: each entry is examined with `fstatat` without following,
  /// then opened with `O_NOFOLLOW` and checked to be the same file before its mode
  /// changes, so an entry swapped meanwhile is refused, not changed.
  private func tighten(_ directory: Int32, under relative: String, depth: Int) throws(StoreError) {
    guard depth < 32 else { throw StoreError("\(display(relative)) is nested too deep in the state directory \(path)") }
    let copy = dup(directory)
    guard copy >= 0, let stream = fdopendir(copy) else {
      let error = errorText()
      if copy >= 0 { close(copy) }
      throw StoreError("cannot list \(display(relative)) in the state directory \(path): \(error)")
    }
    defer { closedir(stream) }
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      if name == "." || name == ".." { continue }
      let child = relative + name
      var st = stat()
      guard fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else {
        if errno == ENOENT { continue }
        throw StoreError("cannot stat \(display(child)) in the state directory \(path): \(errorText())")
      }
      let type = st.st_mode & S_IFMT
      if depth == 0 { try checkOwnName(name, type: type) }
      guard type == S_IFDIR || type == S_IFREG else { continue }
      guard st.st_uid == uid else {
        throw StoreError(
          "\(display(child)) in the state directory \(path) belongs to uid \(st.st_uid), not to uid \(uid) as "
            + "which uncenterd runs, so it cannot make it private: chown -R \(uid) \(path)")
      }
      let wanted: mode_t = type == S_IFDIR ? 0o700 : 0o600
      let needsChange = st.st_mode & 0o7777 != wanted
      guard type == S_IFDIR || needsChange else { continue }
      let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (type == S_IFDIR ? O_DIRECTORY : 0)
      let opened = openat(directory, name, flags)
      guard opened >= 0 else {
        throw StoreError(
          "cannot open \(display(child)) in the state directory \(path) to make it private: \(errorText())")
      }
      defer { close(opened) }
      var now = stat()
      guard fstat(opened, &now) == 0, now.st_dev == st.st_dev, now.st_ino == st.st_ino else {
        throw StoreError("\(display(child)) in the state directory \(path) changed while it was being checked")
      }
      if needsChange {
        guard fchmod(opened, wanted) == 0 else {
          throw StoreError(
            "cannot make \(display(child)) in the state directory \(path) private (chmod \(Self.octal(wanted))): "
              + errorText())
        }
        tightened.entries += 1
      }
      if type == S_IFDIR { try tighten(opened, under: child + "/", depth: depth + 1) }
    }
  }

  /// The names the daemon opens itself must be what it opens them as.
  private func checkOwnName(_ name: String, type: mode_t) throws(StoreError) {
    if Self.ownFiles.contains(name), type != S_IFREG {
      let what = type == S_IFLNK ? "a symbolic link" : "not a regular file"
      throw StoreError(
        "\(display(name)) in the state directory \(path) is \(what): uncenterd keeps its own files in the "
          + "directory itself, where they stay private; put the file itself there (or remove it)")
    }
    if name == Self.attachments, type != S_IFDIR {
      let what = type == S_IFLNK ? "a symbolic link" : "not a directory"
      throw StoreError(
        "\(display(name)) in the state directory \(path) is \(what): uncenterd keeps its attachment copies in a "
          + "directory of its own there; put the directory itself there (or remove it)")
    }
  }

  static func octal(_ mode: mode_t) -> String { String(format: "%04o", mode) }

  func errorText() -> String { String(cString: strerror(errno)) }
}
