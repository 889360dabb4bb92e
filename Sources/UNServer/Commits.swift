import UNModel
import UNStore
import UVLoop

/// Commit off the loop, with `--state`: at the end of each loop iteration the changes
/// of that iteration are taken from the center on the loop thread (the center is the
/// loop's: the rare rows encoded, pending requests and events as snapshots and values)
/// and handed to the store's writer thread (`StoreWriter`), which commits everything
/// handed over since its previous commit in one transaction (group commit) and wakes the
/// loop (`LoopWakeup`).  Meanwhile the loop goes on reading, parsing and handling
/// requests; their answers and callbacks are held (`CommitOrder`) and written when the
/// commit they depend on is durable, so an acknowledged call survives kill -9.
///
/// Loop-confined, owned by `Server`.
final class Commits {
  let order: CommitOrder
  private let writer: StoreWriter
  private let wakeup: LoopWakeup
  private let center: Center
  /// Writes the held output of a durable commit (`Outbox.release`).
  var onDurable: (_ batch: UInt64, _ clients: [ClientConnection]) -> Void = { _, _ in }
  /// The store cannot write: the daemon must stop without answering.
  var onFailure: (StoreError) -> Void = { _ in }
  private var failed = false

  /// Where the stored event history is (from the start-up load).
  private var runs: EventRuns

  /// Takes the store over: from here on only the writer thread uses it.
  init(store: StateStore, runs: EventRuns, loop: EventLoop, center: Center, order: CommitOrder) throws {
    self.order = order
    self.runs = runs
    self.center = center
    // The wakeup exists before the writer thread, which only ever calls its waker.
    var wake: (() -> Void)?
    wakeup = try LoopWakeup(loop: loop) { wake?() }
    writer = StoreWriter(store: store, notify: { [waker = wakeup.waker] in waker.wake() })
    wake = { [unowned self] in self.writerProgressed() }
  }

  /// End of an iteration: what changed goes to the writer as the next commit.  Its rows
  /// are encoded here, on the loop, into one list of bytes: the writer then reads no
  /// memory the loop also uses.  Handed pending records and events instead (and encoding
  /// them on its own thread), the writer touched the reference counts of strings and
  /// records the loop kept using, and freed the loop's allocations into the loop's malloc
  /// arena under its lock: both threads waited on each other for ~0.8 µs per request,
  /// more than the rows cost to encode (~0.2 µs).
  func submit() {
    guard !failed else { return }
    guard let changes = Persistence.takeChanges(from: center) else { return }
    var list = writer.spareList() ?? ChangeList(rows: changes.rowCount, rowBytes: Self.typicalRowBytes)
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
    guard !failed, center.changes.rowCount >= Self.earlyRows else { return false }
    submit()
    return true
  }

  static let earlyRows = 256

  /// On the loop, after the writer committed (one call may cover several commits).
  private func writerProgressed() {
    apply(writer.progress)
  }

  private func apply(_ progress: StoreWriter.Progress) {
    guard !failed else { return }
    if let failure = progress.failure {
      failed = true
      onFailure(failure)
      return
    }
    let clients = order.advance(to: progress.durable)
    guard !clients.isEmpty else { return }
    onDurable(progress.durable, clients)
    order.settle()
  }

  /// Shutdown: commits what is left, waits for the writer to end, writes what waited.
  func finish() {
    submit()
    let progress = writer.close()
    apply(progress)
    wakeup.close()
  }
}
