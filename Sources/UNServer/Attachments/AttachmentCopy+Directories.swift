import Foundation
import JSONRPC

extension AttachmentCopy {
  /// Opens (and with `create`, makes) a directory of the store: never through a link,
  /// owned by the daemon, and 0700 whatever the umask or its earlier mode.  Nil when it
  /// does not exist and `create` is false.  `shown` names it in errors.
  static func openDirectory(_ parent: Int32, _ name: String, create: Bool, shown: String) throws(RPCError) -> Int32? {
    if create, mkdirat(parent, name, 0o700) != 0, errno != EEXIST {
      throw .stateNotWritable(directory: shown, String(cString: strerror(errno)))
    }
    let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else {
      if errno == ENOENT, !create { return nil }
      throw .stateNotWritable(directory: shown, String(cString: strerror(errno)))
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let error = String(cString: strerror(errno))
      close(fd)
      throw .stateNotWritable(directory: shown, error)
    }
    guard info.st_uid == geteuid() else {
      close(fd)
      throw .stateNotWritable(directory: shown, "owned by uid \(info.st_uid), not by the daemon's uid \(geteuid())")
    }
    if info.st_mode & 0o7777 != 0o700, fchmod(fd, 0o700) != 0 {
      let error = String(cString: strerror(errno))
      close(fd)
      throw .stateNotWritable(directory: shown, error)
    }
    return fd
  }

  /// The names in a directory, without `.` and `..`.
  static func names(in directory: Int32) -> [String] {
    // A directory stream of its own: closedir closes the descriptor it was given.
    let copy = dup(directory)
    guard copy >= 0 else { return [] }
    guard let stream = fdopendir(copy) else {
      close(copy)
      return []
    }
    defer { closedir(stream) }
    // The copy shares its offset with `directory`, which may have been read before.
    rewinddir(stream)
    var out: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
      }
      if name != "." && name != ".." { out.append(name) }
    }
    return out
  }

  static func isEmpty(_ directory: Int32) -> Bool { names(in: directory).isEmpty }
}
