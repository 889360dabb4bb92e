import Foundation
import Synchronization

/// The store's own thread (group commit off the daemon's loop): the loop hands it
/// numbered batches of changes and goes on reading and parsing; the thread commits
/// whatever has queued up since its last commit in one transaction, then records the
/// highest batch number now durable and calls `notify` (which wakes the loop).
///
/// A commit that fails (a full or failing disk) is not dropped: its batches stay, in
/// order, ahead of every later one, and are committed again with them on the next
/// attempt (a later batch applied without an earlier one would store a state the daemon
/// never had).  `failure` reports the condition until writes succeed again.  The first
/// commit to fail for lack of space is tried once more at once with the store's reserve
/// given back (`StateStore.releaseReserve`), so that its callers are answered; the
/// condition ends only once a commit succeeds and the reserve is set aside again.  The
/// writer tries again whenever a batch arrives or `retry()` is called.
///
/// `submit`, `retry` and `progress` may be called from any thread (the loop); the store
/// itself is used only by the writer thread from `init` until `close()` returns.
public final class StoreWriter: Sendable {
  public struct Progress: Sendable {
    /// The highest batch number committed (0: none yet).
    public var durable: UInt64 = 0
    /// Why the store cannot take writes now (nil: it can): the last failed commit's or
    /// reserve's error.  Batches not yet durable wait with the writer meanwhile.
    public var failure: StoreError?
    /// Changes handed over that are not durable yet (batches waiting after a failure).
    public var unwrittenBatches = 0
  }

  private struct Shared {
    var queue: [(batch: UInt64, changes: any StoreBatch)] = []
    var progress = Progress()
    var closing = false
    /// Lists the writer has committed, emptied with their buffers kept, for the loop's
    /// next batches (`spareList`).
    var spares: [RowBuffer] = []
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
  /// `failure`: the store cannot take writes from the start (its reserve could not be
  /// made); the writer tries again on the first `retry` or batch.
  public init(store: StateStore, failure: StoreError? = nil, notify: @escaping @Sendable () -> Void) {
    shared.withLock { $0.progress.failure = failure }
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

  /// Wakes the writer to try again what failed (or, with nothing waiting, to set the
  /// reserve aside again); it calls `notify` after the attempt.
  public func retry() { work.signal() }

  /// An empty list whose buffers a committed batch used, or nil when none is spare.
  /// A batch written into fresh buffers page-faulted on most of its bytes: the buffer
  /// freed after each commit went back to the system, and each new one came back as
  /// zeroed pages, a visible share of the loop's time under `--state` load (see
  /// BENCHMARKS.md).
  public func spareList() -> RowBuffer? {
    shared.withLock { $0.spares.popLast() }
  }

  /// Keeps a committed list for `spareList`, within `spareCount` and `spareBytesLimit`.
  private func recycle(_ list: inout RowBuffer) {
    guard list.capacityBytes <= Self.spareBytesLimit else { return }
    list.removeAll()
    let spare = list
    list = RowBuffer()
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

  private typealias Batch = (batch: UInt64, changes: any StoreBatch)

  private func run(_ store: StateStore, notify: @Sendable () -> Void) {
    // Reused by every commit: its buffers keep their capacity.
    var list = RowBuffer()
    // Batches of a failed commit, oldest first: they go ahead of every later batch.
    var unwritten: [Batch] = []
    while true {
      work.wait()
      // Moved out of the queue, not copied: then a batch's list has one owner, and its
      // buffers can be recycled in place.
      var batches: [Batch] = []
      let (closing, failing) = shared.withLock { shared in
        swap(&batches, &shared.queue)
        return (shared.closing, shared.progress.failure != nil)
      }
      if !unwritten.isEmpty {
        batches = unwritten + batches
        unwritten = []
      }
      if let last = batches.last {
        var committed = false
        do {
          try commit(&batches, store: store, gathering: &list)
          committed = true
        } catch {
          var failure = error
          // Out of space: the reserve's room lets this commit through.
          if !failing, store.releaseReserve() {
            do {
              try commit(&batches, store: store, gathering: &list)
              committed = true
            } catch {
              failure = error
            }
          }
          if !committed { unwritten = batches }
          let waiting = unwritten.count
          shared.withLock {
            $0.progress.failure = failure
            $0.progress.unwrittenBatches = waiting
          }
        }
        if committed {
          // After a failure, writable again only once the reserve is back; the first
          // failure's error is kept while it is not.
          let wasFailing = failing || shared.withLock { $0.progress.failure != nil }
          let stillFailing = wasFailing ? reserveFailure(store) : nil
          shared.withLock {
            $0.progress.durable = last.batch
            $0.progress.unwrittenBatches = 0
            if wasFailing { $0.progress.failure = stillFailing == nil ? nil : $0.progress.failure ?? stillFailing }
          }
        }
        notify()
        // After the answers are released: the loop reads and handles the next
        // requests meanwhile.
        if committed { store.maintain() }
      } else if failing {
        // A retry with nothing waiting: whether the reserve can be set aside again.
        if reserveFailure(store) == nil {
          shared.withLock { $0.progress.failure = nil }
        }
        notify()
      }
      if closing { break }
    }
    store.close()
    ended.signal()
  }

  /// Sets the store's reserve aside again: nil when it is, else why not.
  private func reserveFailure(_ store: StateStore) -> StoreError? {
    do {
      try store.restoreReserve()
      return nil
    } catch {
      return error
    }
  }

  /// Commits `batches` in one transaction.  On success the lists are recycled and
  /// `batches` is emptied; on failure `batches` still holds every change (as one
  /// gathered list when there were several).
  private func commit(_ batches: inout [Batch], store: StateStore, gathering list: inout RowBuffer)
    throws(StoreError)
  {
    if batches.count == 1, var only = batches[0].changes.changeList {
      // The usual case under load: committed as it came, without a copy.
      let number = batches[0].batch
      batches.removeAll()  // `only` then holds the list's only reference
      do {
        try store.commit(only)
      } catch {
        batches = [(number, only)]
        throw error
      }
      recycle(&only)
      return
    }
    list.removeAll()
    for batch in batches { batch.changes.append(to: &list) }
    do {
      try store.commit(list)
    } catch {
      // The gathered list stands for all of them from now on; the writer starts a new one.
      batches = [(batches[batches.count - 1].batch, list)]
      list = RowBuffer()
      throw error
    }
    var gathered = batches.compactMap(\.changes.changeList)
    batches.removeAll()
    while var one = gathered.popLast() { recycle(&one) }
  }
}

/// What one `submit` hands to the writer: changes that refer to nothing the submitting
/// thread goes on using (the daemon hands over a `RowBuffer`).
public protocol StoreBatch: Sendable {
  /// Appends the batch's changes, in the order they apply.
  func append(to changes: inout RowBuffer)
  /// The batch itself when it is a `RowBuffer` (committed as it is), else nil.
  var changeList: RowBuffer? { get }
}

extension StoreBatch {
  public var changeList: RowBuffer? { nil }
}

extension Array: StoreBatch where Element == StoreChange {
  public func append(to changes: inout RowBuffer) {
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
