import Foundation

/// `uncenter.lock` in a state directory, held (`flock`, exclusive) for as long as a store
/// has the directory open, so that two daemons never write one state.  SQLite's own
/// locking cannot do it: the store uses normal locking so that its checkpointer's
/// connection can read the log while the writer writes it.  A lock of its own file,
/// because closing any descriptor of the database would drop SQLite's POSIX locks.
final class StateDirectoryLock {
  private var fd: Int32

  /// Takes the lock or throws: another holder, or the file cannot be opened.
  init(directory: String) throws(StoreError) {
    let path = (directory.hasSuffix("/") ? directory : directory + "/") + "uncenter.lock"
    fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw StoreError("cannot open \(path): \(String(cString: strerror(errno)))") }
    // 0600 whatever the umask (`StateDirectory` made an existing one so already).
    fchmod(fd, 0o600)
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let busy = errno == EWOULDBLOCK
      let reason = String(cString: strerror(errno))
      Foundation.close(fd)
      fd = -1
      throw StoreError(
        busy
          ? "the state directory \(directory) is in use by another uncenterd (\(path) is locked)"
          : "cannot lock \(path): \(reason)")
    }
  }

  deinit { release() }

  /// Lets the next store in (closing the descriptor drops the lock).
  func release() {
    if fd >= 0 { Foundation.close(fd) }
    fd = -1
  }
}
