import Dispatch
import Foundation
import Synchronization

/// Where log lines go: a buffer that a writer thread of its own empties into a file
/// descriptor (stderr), so the loop thread never waits on a slow reader of the log (a
/// stalled journald, a full pipe, a terminal scrolled back).  Lines are appended whole and
/// written whole, in order.  When more than `capacity` bytes wait, new lines are dropped
/// and counted, and once the writer catches up it writes one
/// `level=warn event=log_lines_dropped count=N` line: as Redis and nginx do with buffered
/// logs, a slow log loses lines rather than slowing every client.
///
/// `Sendable`: all mutable state is inside the `Mutex`; the semaphore only wakes the
/// writer thread.
public final class LogSink: Sendable {
  private struct State {
    var pending: [UInt8] = []
    var dropped = 0
    /// The writer thread is waiting on the semaphore (set and cleared under the lock, so
    /// exactly one append wakes it).
    var idle = false
    var flushWaiters = 0
  }

  /// The daemon's stderr.
  public static let standardError = LogSink(fd: 2, journal: Log.stderrIsJournal())

  public let capacity: Int
  /// How long the writer waits after a write before it takes the next batch.
  static let lingerMicroseconds: UInt32 = 1000
  private let fd: Int32
  private let journal: Bool
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let flushed = DispatchSemaphore(value: 0)

  /// Lines dropped since the sink was made (for tests and stats).
  public var droppedTotal: Int { totalDropped.withLock { $0 } }
  private let totalDropped = Mutex(0)

  /// A sink writing to `fd` (which it does not own) from a thread it starts now.
  /// `journal` gives its own `log_lines_dropped` line a `<4>` priority prefix.
  public init(fd: Int32, journal: Bool = false, capacity: Int = 4 << 20) {
    self.fd = fd
    self.journal = journal
    self.capacity = capacity
    let thread = Thread { [self] in self.writeForever() }
    thread.name = "uncenterd-log"
    thread.start()
  }

  /// Queues one whole line (with its newline); never blocks on the descriptor.
  public func append(_ line: some Collection<UInt8>) {
    let wakeWriter = state.withLock { s -> Bool in
      guard s.pending.count + line.count <= capacity else {
        s.dropped += 1
        return false
      }
      s.pending.append(contentsOf: line)
      guard s.idle else { return false }
      s.idle = false
      return true
    }
    if wakeWriter { wake.signal() }
  }

  /// Waits until everything appended so far is written (at exit).
  public func flush() {
    let wait = state.withLock { s -> Bool in
      guard !s.pending.isEmpty || !s.idle || s.dropped > 0 else { return false }
      s.flushWaiters += 1
      if s.idle {
        s.idle = false
        wake.signal()
      }
      return true
    }
    if wait { flushed.wait() }
  }

  private func writeForever() {
    var cache = WrittenPages(fd: fd)
    var batch: [UInt8] = []
    while true {
      var dropped = 0
      var waiters = 0
      let goIdle = state.withLock { s -> Bool in
        swap(&batch, &s.pending)
        dropped = s.dropped
        s.dropped = 0
        if batch.isEmpty && dropped == 0 {
          waiters = s.flushWaiters
          s.flushWaiters = 0
          s.idle = true
          return true
        }
        return false
      }
      for _ in 0..<waiters { flushed.signal() }
      if goIdle {
        wake.wait()
        continue
      }
      writeAll(batch)
      cache.wrote(batch.count)
      batch.removeAll(keepingCapacity: batch.capacity <= 1 << 20)
      if dropped > 0 {
        totalDropped.withLock { $0 += dropped }
        let line = (journal ? "<4>" : "") + "level=warn event=log_lines_dropped count=\(dropped)\n"
        writeAll(Array(line.utf8))
      }
      // Linger before looking again, so that the lines of a busy millisecond go out in one
      // write and the loop thread is not paying for a wake-up (a futex call and a context
      // switch) per line: under load the writer is never idle, and appends never signal.
      usleep(Self.lingerMicroseconds)
    }
  }

  /// Blocking writes until every byte is out (or the descriptor is gone: then the bytes
  /// are discarded, as a daemon without a log carries on).
  private func writeAll(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if n > 0 {
          offset += n
        } else if n < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}
