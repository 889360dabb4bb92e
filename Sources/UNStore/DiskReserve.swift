import Foundation

/// `uncenter.reserve` in a state directory: room set aside on the state's file system
/// (allocated, not sparse), given back when a commit fails for lack of space so that the
/// commit in flight can still be written and its callers answered; the daemon refuses
/// further changes until the reserve can be made again (`StoreWriter`).  Without it, the
/// commit that meets a full disk would wait, with the answers of its callers, until space
/// is freed.
///
/// Used only by the store's writer thread (and at start-up, before the writer exists).
public final class DiskReserve {
  public let path: String
  public let bytes: Int

  /// `bytes` 0: no reserve (`release` finds nothing, `restore` succeeds at once).
  public init(directory: String, bytes: Int) {
    path = (directory.hasSuffix("/") ? directory : directory + "/") + StateDirectory.reserveName
    self.bytes = bytes
  }

  /// Whether the reserve is there, whole.
  public var isHeld: Bool {
    guard bytes > 0 else { return true }
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && Int(info.st_blocks) * 512 >= bytes
  }

  /// Allocates the reserve (when it is not already there): throws when the file system
  /// has no room for it, leaving nothing behind.
  public func restore() throws(StoreError) {
    guard bytes > 0, !isHeld else { return }
    let fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw StoreError("cannot create \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    // posix_fallocate returns the error instead of setting errno.
    let rc = posix_fallocate(fd, 0, off_t(bytes))
    guard rc == 0 else {
      unlink(path)
      throw StoreError("cannot set \(bytes) bytes aside in \(path): \(String(cString: strerror(rc)))")
    }
    _ = fchmod(fd, 0o600)
  }

  /// Gives the reserve's room back to the file system; false when there was none.
  @discardableResult
  public func release() -> Bool {
    guard bytes > 0 else { return false }
    return unlink(path) == 0
  }
}
