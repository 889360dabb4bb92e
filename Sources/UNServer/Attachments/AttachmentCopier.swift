import Foundation
import Synchronization

/// The attachment copier's thread: the loop hands it tasks (`AttachmentTask`) and goes
/// on serving; the thread runs them one at a time, in order (`AttachmentCopy`), queues
/// each outcome and calls `notify` (which wakes the loop).  A copy may read a slow file
/// or a large one: it never holds up the loop.
///
/// The thread is the only one that changes its file-system identity (to open a client's
/// file as that client), and only with the per-thread system calls, so the loop and the
/// store's writer always act as the daemon.
///
/// `submit`, `takeOutcomes` and `close` may be called from any thread (the loop).
final class AttachmentCopier: Sendable {
  enum Work: Sendable {
    case task(AttachmentTask)
    /// Copies made for a request that was not kept: removed.
    case discard(paths: [String], sequence: UInt64)
  }

  private struct Shared {
    var queue: [Work] = []
    var outcomes: [AttachmentOutcome] = []
    var closed = false
  }

  private let shared = Mutex(Shared())
  /// Signalled once per submitted piece of work and by `close`; the thread sleeps on it.
  private let work = DispatchSemaphore(value: 0)
  /// Signalled once, when the thread ends.
  private let ended = DispatchSemaphore(value: 0)

  /// Starts the thread.  `notify` runs on it after each task's outcome was queued.
  init(notify: @escaping @Sendable () -> Void) {
    let thread = Thread { [self] in self.run(notify: notify) }
    thread.name = "uncenterd-attachments"
    thread.start()
  }

  func submit(_ next: Work) {
    let queued = shared.withLock { shared in
      guard !shared.closed else { return false }
      shared.queue.append(next)
      return true
    }
    if queued { work.signal() }
  }

  /// The outcomes queued since the last call, in the order of their tasks.
  func takeOutcomes() -> [AttachmentOutcome] {
    shared.withLock { shared in
      var taken: [AttachmentOutcome] = []
      swap(&taken, &shared.outcomes)
      return taken
    }
  }

  /// Shutdown: work not begun is dropped, the copies of outcomes nobody will take are
  /// removed (by the thread, which finishes the task it is in first).  Waits up to
  /// `seconds` for it: a copy stuck reading a file must not hold the daemon's exit up.
  func close(waitingUpTo seconds: Double) {
    let first = shared.withLock { shared in
      defer { shared.closed = true }
      return !shared.closed
    }
    guard first else { return }
    work.signal()
    _ = ended.wait(timeout: .now() + seconds)
  }

  private func run(notify: @Sendable () -> Void) {
    var copy = AttachmentCopy()
    while true {
      work.wait()
      let (next, closed) = shared.withLock { shared in
        (shared.closed ? nil : shared.queue.isEmpty ? nil : shared.queue.removeFirst(), shared.closed)
      }
      if closed { break }
      guard let next else { continue }
      switch next {
      case .discard(let paths, let sequence):
        copy.remove(paths, sequence: sequence)
      case .task(let task):
        let outcome = copy.perform(task)
        let taken = shared.withLock { shared in
          guard !shared.closed else { return false }
          shared.outcomes.append(outcome)
          return true
        }
        if taken {
          notify()
        } else if case .success(let paths) = outcome.copies {
          copy.remove(paths, sequence: outcome.sequence)
        }
      }
    }
    // Outcomes queued but never taken: their copies go too.
    let left = shared.withLock { shared in
      var taken: [AttachmentOutcome] = []
      swap(&taken, &shared.outcomes)
      return taken
    }
    for outcome in left {
      if case .success(let paths) = outcome.copies { copy.remove(paths, sequence: outcome.sequence) }
    }
    ended.signal()
  }
}
