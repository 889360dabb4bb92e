import Foundation
import Synchronization

/// The store's own thread (group commit off the daemon's loop): the loop hands it
/// numbered batches of changes and goes on reading and parsing; the thread commits
/// whatever has queued up since its last commit in one transaction, then records the
/// highest batch number now durable and calls `notify` (which wakes the loop).
///
/// After a failed commit nothing more is written: a later batch applied without an
/// earlier one would store a state the daemon never had.
///
/// `submit` and `progress` may be called from any thread (the loop); the store itself
/// is used only by the writer thread from `init` until `close()` returns.
public final class StoreWriter: Sendable {
  public struct Progress: Sendable {
    /// The highest batch number committed (0: none yet).
    public var durable: UInt64 = 0
    /// Why the store stopped writing.
    public var failure: StoreError?
  }

  private struct Shared {
    var queue: [(batch: UInt64, changes: any StoreBatch)] = []
    var progress = Progress()
    var closing = false
    /// Lists the writer has committed, emptied with their buffers kept, for the loop's
    /// next batches (`spareList`).
    var spares: [ChangeList] = []
  }

  /// Committed lists kept for reuse: enough for the batches in flight at once.
  static let spareCount = 4
  /// A list whose buffers grew past this (a reset of a large app) is freed instead.
  static let spareBytesLimit = 4 << 20

  private let shared = Mutex(Shared())
  /// Signalled once per submitted batch and by `close`; the writer sleeps on it.
  private let work = DispatchSemaphore(value: 0)
  /// Signalled once, when the writer thread has closed the store and ends.
  private let ended = DispatchSemaphore(value: 0)

  /// Starts the writer thread, which owns `store` from now on.  `notify` runs on that
  /// thread after every commit (successful or not).
  public init(store: StateStore, notify: @escaping @Sendable () -> Void) {
    let handOver = HandOver(store: store)
    let thread = Thread { [self] in self.run(handOver.store, notify: notify) }
    thread.name = "uncenterd-store"
    thread.start()
  }

  /// Queues a batch; numbers must increase.
  public func submit(_ changes: some StoreBatch, batch: UInt64) {
    shared.withLock { shared in
      assert(!shared.closing, "StoreWriter.submit after close")
      assert(shared.queue.last.map { $0.batch < batch } ?? true)
      shared.queue.append((batch, changes))
    }
    work.signal()
  }

  public var progress: Progress { shared.withLock { $0.progress } }

  /// An empty list whose buffers a committed batch used, or nil when none is spare.
  /// A batch written into fresh buffers page-faulted on most of its bytes: the buffer
  /// freed after each commit went back to the system, and each new one came back as
  /// zeroed pages, ~12 % of the loop's time under `--state` load.
  public func spareList() -> ChangeList? {
    shared.withLock { $0.spares.popLast() }
  }

  /// Keeps a committed list for `spareList`, within `spareCount` and `spareBytesLimit`.
  private func recycle(_ list: inout ChangeList) {
    guard list.capacityBytes <= Self.spareBytesLimit else { return }
    list.removeAll()
    let spare = list
    list = ChangeList()
    shared.withLock { shared in
      if shared.spares.count < Self.spareCount { shared.spares.append(spare) }
    }
  }

  /// Commits what is queued, closes the store and ends the thread; returns the final
  /// progress.  Blocks the caller until then (shutdown only).
  public func close() -> Progress {
    let first = shared.withLock { shared in
      defer { shared.closing = true }
      return !shared.closing
    }
    if first {
      work.signal()
      ended.wait()
    }
    return progress
  }

  private func run(_ store: StateStore, notify: @Sendable () -> Void) {
    // Reused by every commit: its buffers keep their capacity.
    var list = ChangeList()
    while true {
      work.wait()
      // Moved out of the queue, not copied: then a batch's list has one owner, and its
      // buffers can be recycled in place.
      var batches: [(batch: UInt64, changes: any StoreBatch)] = []
      let closing = shared.withLock { shared in
        swap(&batches, &shared.queue)
        return shared.closing
      }
      if let last = batches.last {
        let failed = shared.withLock { $0.progress.failure != nil }
        if !failed {
          var committed = false
          do {
            if batches.count == 1, var only = batches[0].changes.changeList {
              // The usual case under load: committed as it came, without a copy.
              batches.removeAll()  // `only` then holds the list's only reference
              try store.commit(only)
              recycle(&only)
            } else {
              list.removeAll()
              for batch in batches { batch.changes.append(to: &list) }
              var gathered = batches.compactMap(\.changes.changeList)
              batches.removeAll()
              while var one = gathered.popLast() { recycle(&one) }
              try store.commit(list)
            }
            shared.withLock { $0.progress.durable = last.batch }
            committed = true
          } catch {
            shared.withLock { $0.progress.failure = error }
          }
          notify()
          // After the answers are released: the loop reads and handles the next
          // requests meanwhile.
          if committed { store.maintain() }
        }
      }
      if closing { break }
    }
    store.close()
    ended.signal()
  }
}

/// What one `submit` hands to the writer: changes that refer to nothing the submitting
/// thread goes on using (the daemon hands over a `ChangeList`).
public protocol StoreBatch: Sendable {
  /// Appends the batch's changes, in the order they apply.
  func append(to changes: inout ChangeList)
  /// The batch itself when it is a `ChangeList` (committed as it is), else nil.
  var changeList: ChangeList? { get }
}

extension StoreBatch {
  public var changeList: ChangeList? { nil }
}

extension Array: StoreBatch where Element == StoreChange {
  public func append(to changes: inout ChangeList) {
    for change in self { changes.append(change) }
  }
}

/// Carries the store to the writer thread.  `@unchecked Sendable` is safe because the
/// store changes hands exactly once: the daemon stops using it before creating the
/// writer (it loaded the state and made its start-up commit), and from then on only the
/// writer thread touches it.
private final class HandOver: @unchecked Sendable {
  let store: StateStore
  init(store: StateStore) { self.store = store }
}
