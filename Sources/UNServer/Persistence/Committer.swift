import UNModel
import UNStore
import UVLoop

/// Commit off the loop, with `--state`: at the end of each loop iteration the changes
/// of that iteration are taken from the center on the loop thread (the center is the
/// loop's: the rare rows encoded, pending requests and events as snapshots and values)
/// and handed to the store's writer thread (`StoreWriter`), which commits everything
/// handed over since its previous commit in one transaction (group commit) and wakes the
/// loop (`LoopWakeup`).  Meanwhile the loop goes on reading, parsing and handling
/// requests; their answers and callbacks are held (`OutputGate`) and written when the
/// commit they depend on is durable, so an acknowledged call survives kill -9.
///
/// When the disk refuses a commit (full, failing), the writer keeps what it could not
/// write and this reports the state not writable (`Runner.writabilityChanged`): the dispatcher refuses
/// clients' changes, output no longer waits behind commits (reads, callbacks and pings go
/// on; a connection's output still waits behind its own held output), and the writer is
/// asked to try again every `retryMilliseconds` until it succeeds and the mode ends.
///
/// Loop-confined, owned by `Server`.
///
/// The loop's side of committing: it takes `RecordedChanges` as `BatchRows`, hands
/// them as a `RowBuffer` to `StoreWriter`, numbers the commits for `OutputGate`, and
/// tells the `Runner` when one is durable.
final class Committer {
  let order: OutputGate
  private let writer: StoreWriter
  private let wakeup: LoopWakeup
  private let center: Center
  /// Told when a commit is durable (its held output goes out) and when the state stops
  /// or starts again taking writes.
  private let runner: Runner
  /// Why the state does not take writes now (nil: it does).
  private(set) var notWritable: StoreError?
  /// Changes handed to the writer and not durable yet, as of its last report.
  private(set) var unwrittenBatches = 0
  /// Asks the writer to try again while the state is not writable.
  private let retryTimer: LoopTimer
  static let retryMilliseconds: UInt64 = 1000

  /// Where the stored event history is (from the start-up load).
  private var runs: EventRuns

  /// Takes the store over: from here on only the writer thread uses it.
  init(
    store: StateStore, runs: EventRuns, loop: EventLoop, center: Center, order: OutputGate, runner: Runner
  ) throws {
    self.order = order
    self.runner = runner
    self.runs = runs
    self.center = center
    retryTimer = try LoopTimer(loop: loop)
    retryTimer.keepsLoopAlive = false
    // The reserve is made here, before the writer owns the store; without it the state
    // starts not writable, and the writer's retries make it.
    var reserveFailure: StoreError?
    do {
      try store.restoreReserve()
    } catch {
      reserveFailure = error
    }
    // The wakeup exists before the writer thread, which only ever calls its waker.
    var wake: (() -> Void)?
    wakeup = try LoopWakeup(loop: loop) { wake?() }
    writer = StoreWriter(
      store: store, failure: reserveFailure, notify: { [waker = wakeup.waker] in waker.wake() })
    wake = { [unowned self] in self.writerProgressed() }
  }

  /// Reports the writer's first condition (once the server is built).
  func start() { apply(writer.progress) }

  /// End of an iteration: what changed goes to the writer as the next commit.  Its rows
  /// are encoded here, on the loop, into one list of bytes: the writer then reads no
  /// memory the loop also uses.  Handed pending records and events instead (and encoding
  /// them on its own thread), the writer touched the reference counts of strings and
  /// records the loop kept using, and freed the loop's allocations into the loop's malloc
  /// arena under its lock: both threads waited on each other for longer than the rows
  /// take to encode (see BENCHMARKS.md).
  func submit() {
    guard let changes = Persistence.takeChanges(from: center) else { return }
    var list = writer.spareList() ?? RowBuffer(rows: changes.rowCount, rowBytes: Self.typicalRowBytes)
    changes.append(to: &list, runs: &runs)
    writer.submit(list, batch: order.next())
  }

  /// About the bytes of a pending or event row with its names (a `scheduleLocal`'s are
  /// ~230 and ~110).
  static let typicalRowBytes = 192

  /// After one connection's input was handled: a batch of `earlyRows` rows or more goes
  /// to the writer now rather than at the end of the iteration, so the writer commits it
  /// while the loop handles the rest of the iteration's input.  Submitting only at the
  /// end, the two threads took turns: a pass over every connection's pipelined requests
  /// became one commit, and the loop sat idle until it was durable and the answers went
  /// out.  True when it submitted (the caller then holds the output queued so far behind
  /// this commit).
  func submitIfLarge() -> Bool {
    guard center.changes.rowCount >= Self.earlyRows else { return false }
    submit()
    return true
  }

  static let earlyRows = 256

  /// On the loop, after the writer committed (one call may cover several commits).
  private func writerProgressed() {
    apply(writer.progress)
  }

  private func apply(_ progress: StoreWriter.Progress) {
    unwrittenBatches = progress.unwrittenBatches
    if let failure = progress.failure, notWritable == nil { enterNotWritable(failure) }
    let clients = order.advance(to: progress.durable)
    if !clients.isEmpty {
      runner.durable(upTo: progress.durable, of: clients)
      order.settle()
    }
    if progress.failure == nil, notWritable != nil { leaveNotWritable() }
  }

  private func enterNotWritable(_ failure: StoreError) {
    notWritable = failure
    // Output reports what is in memory: it no longer waits for commits that may not
    // come soon (a connection's output still waits behind its own held output).
    order.holdsBehindCommits = false
    let writer = self.writer
    try? retryTimer.start(afterMilliseconds: Self.retryMilliseconds, repeatMilliseconds: Self.retryMilliseconds) {
      writer.retry()
    }
    runner.writabilityChanged(failure)
  }

  private func leaveNotWritable() {
    notWritable = nil
    order.holdsBehindCommits = true
    retryTimer.stop()
    runner.writabilityChanged(nil)
  }

  /// Shutdown: commits what is left, waits for the writer to end, writes what waited.
  /// Returns the writer's last report (with the batches it could not write, if any).
  @discardableResult
  func finish() -> StoreWriter.Progress {
    submit()
    let progress = writer.close()
    apply(progress)
    retryTimer.close()
    wakeup.close()
    return progress
  }
}
