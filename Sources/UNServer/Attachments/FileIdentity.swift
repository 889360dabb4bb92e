import CFileIdentity
import Foundation

/// Whose rights a file is opened with: a uid, a gid and supplementary groups, as the
/// kernel reported them for a client's socket (SO_PEERCRED, SO_PEERGROUPS).
///
/// `adopt()` makes it the calling thread's file-system identity, with the per-thread
/// system calls of `CFileIdentity`: only the attachment copier's own thread ever calls
/// it, and only around the `open` of a client's file (`AttachmentCopy`).
struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
  var uid: UInt32
  var gid: UInt32
  /// Sorted, without repeats (as the kernel keeps them).
  var groups: [UInt32]

  init(uid: UInt32, gid: UInt32, groups: [UInt32]) {
    self.uid = uid
    self.gid = gid
    self.groups = Array(Set(groups)).sorted()
  }

  var description: String { "uid \(uid)" }

  /// The calling thread's effective identity, as it is before any `adopt()`.
  static func currentThread() -> FileIdentity {
    let count = uncenter_thread_getgroups(0, nil)
    var groups = [UInt32](repeating: 0, count: Int(max(count, 0)))
    let read = groups.withUnsafeMutableBufferPointer { uncenter_thread_getgroups(Int32($0.count), $0.baseAddress) }
    return FileIdentity(uid: geteuid(), gid: getegid(), groups: read < 0 ? [] : Array(groups.prefix(Int(read))))
  }

  /// The calling thread's file-system identity now: fsuid, fsgid (read by passing an
  /// invalid id, which changes nothing) and groups.
  static func currentFileSystemIdentity() -> FileIdentity {
    let uid = uncenter_thread_setfsuid(UInt32.max)
    let gid = uncenter_thread_setfsgid(UInt32.max)
    return FileIdentity(uid: uid, gid: gid, groups: currentThread().groups)
  }

  /// Makes this the calling thread's file-system identity: groups first (while the
  /// thread may still change them), then the fsgid, then the fsuid.  True when all three
  /// took, as read back; false leaves the thread with some of them changed, for the
  /// caller to `adopt()` its own identity again.  Needs CAP_SETGID and CAP_SETUID unless
  /// the ids are the thread's own.
  func adopt() -> Bool {
    if FileIdentity.currentThread().groups != groups {
      let set = groups.withUnsafeBufferPointer { uncenter_thread_setgroups($0.count, $0.baseAddress) }
      guard set == 0 else { return false }
    }
    _ = uncenter_thread_setfsgid(gid)
    _ = uncenter_thread_setfsuid(uid)
    return FileIdentity.currentFileSystemIdentity() == self
  }
}
