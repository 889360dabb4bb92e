import Foundation

/// How much of a file the kernel's page cache holds (`mincore` over a mapping of it), for
/// tests of the code that gives written pages back.
public enum PageCache {
  /// The file's pages in the page cache, and all of its pages.
  public static func residentPages(of path: String) throws -> (resident: Int, total: Int) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw HarnessError("cannot open \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw HarnessError("cannot stat \(path)") }
    let length = Int(status.st_size)
    guard length > 0 else { return (0, 0) }
    // Mapping faults nothing in: mincore only reports what is already cached.
    guard let map = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), map != MAP_FAILED else {
      throw HarnessError("cannot map \(path): \(String(cString: strerror(errno)))")
    }
    defer { munmap(map, length) }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    var vector = [UInt8](repeating: 0, count: (length + page - 1) / page)
    guard mincore(map, length, &vector) == 0 else { throw HarnessError("mincore failed on \(path)") }
    return (vector.filter { $0 & 1 != 0 }.count, vector.count)
  }

  /// Whether the filesystem of `directory` drops clean pages on `POSIX_FADV_DONTNEED`
  /// (tmpfs keeps them: its pages are the file).
  public static func dropsCleanPages(in directory: String) throws -> Bool {
    let path = directory + "/page-cache-probe-\(getpid())"
    let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw HarnessError("cannot create \(path)") }
    defer {
      close(fd)
      unlink(path)
    }
    let bytes = [UInt8](repeating: 7, count: 64 * 1024)
    guard write(fd, bytes, bytes.count) == bytes.count, fdatasync(fd) == 0 else {
      throw HarnessError("cannot write \(path)")
    }
    _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
    return try residentPages(of: path).resident == 0
  }
}
