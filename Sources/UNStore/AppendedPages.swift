import Foundation

/// After each checkpoint pass, the pages the pass appended to the database file are
/// handed back to the kernel (`POSIX_FADV_DONTNEED`).  A `--state` database grows by the
/// size of every request kept, and each page a pass appends is a new page-cache page
/// taken from free memory; the writer's connection still holds the same pages in its own
/// cache (64 MiB), which is where SQLite reads them from.  Pages given back are what the
/// next pass's writes reuse: on a virtual machine whose free memory goes back to the host
/// (free page reporting), a page the host must provide again is slow to touch: the
/// checkpointer's copies into new pages were a visible share of a durable daemon's time
/// under load, and much less with the pages given back (see BENCHMARKS.md).
///
/// A pass syncs the database after copying (`synchronous=NORMAL` or `FULL`), so the
/// pages are clean and Linux drops them; a page still dirty is only written back, never
/// lost.  Each range is advised twice, at the pass that appended it and at the next, to
/// catch pages the writer's catch-up appended after a pass's sync.  Used by the
/// checkpointer's thread only.
struct AppendedPages {
  private let fd: Int32
  /// The file's size at the pass before the last, and at the last.
  private var older: off_t = 0
  private var newer: off_t = 0

  /// `fd`: a descriptor of the database file, or -1 (then nothing is done).
  init(fd: Int32) {
    self.fd = fd
    newer = size() ?? 0
    older = newer
  }

  private func size() -> off_t? {
    var status = stat()
    guard fd >= 0, fstat(fd, &status) == 0 else { return nil }
    return status.st_size
  }

  /// After a pass: gives back what was appended since the pass before the last.
  mutating func release() {
    guard let size = size() else { return }
    // Smaller (a vacuum truncated it): what is past the end is gone anyway.
    if size > older { _ = posix_fadvise(fd, older, size - older, POSIX_FADV_DONTNEED) }
    (older, newer) = (min(newer, size), size)
  }
}
