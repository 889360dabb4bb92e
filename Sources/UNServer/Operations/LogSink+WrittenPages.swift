import Foundation

extension LogSink {
  /// When the log is a regular file (`uncenterd 2>>file`), the pages it has written are
  /// handed back to the kernel as they reach the disk, as PostgreSQL does with its
  /// write-ahead log segments: the daemon never reads its log back, and a file that grows
  /// by tens of megabytes a second under load (a line per event) would otherwise fill the
  /// page cache with pages nobody reads, each new one taken from free memory.  Pages given
  /// back are what the next writes reuse: on a virtual machine whose free memory goes back
  /// to the host (free page reporting), a page the host must provide again is slow to
  /// touch, and the log thread's copies into new pages were a visible share of the
  /// daemon's time under load, and much less with the pages given back (see
  /// BENCHMARKS.md).
  ///
  /// Every `window` bytes, one `POSIX_FADV_DONTNEED` over the last two windows: it starts
  /// the writeback of the newer and drops the older, written back since the call before
  /// (Linux drops only clean pages, so nothing is lost, only uncached).  A pipe, a socket
  /// (journald) or a terminal is left alone.  Used by the writer thread only.
  struct WrittenPages {
    static let window = 1 << 20

    private let fd: Int32
    private let regularFile: Bool
    private var sinceMark = 0
    /// The offsets of the last two marks: `[older, newer)` is the window written back.
    private var older: off_t = 0
    private var newer: off_t = 0

    init(fd: Int32) {
      self.fd = fd
      var status = stat()
      regularFile = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
      if regularFile {
        newer = max(0, lseek(fd, 0, SEEK_CUR))
        older = newer
      }
    }

    /// `count` more bytes were written.
    mutating func wrote(_ count: Int) {
      guard regularFile else { return }
      sinceMark += count
      guard sinceMark >= Self.window else { return }
      sinceMark = 0
      let offset = lseek(fd, 0, SEEK_CUR)
      // Truncated behind our back (copytruncate rotation): start again from there.
      guard offset > newer else {
        (older, newer) = (max(0, offset), max(0, offset))
        return
      }
      _ = posix_fadvise(fd, older, offset - older, POSIX_FADV_DONTNEED)
      (older, newer) = (newer, offset)
    }
  }
}
