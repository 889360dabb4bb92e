/// Which commit each iteration's output waits for, with `--state`.  Commits are
/// numbered as they are handed to the store's writer thread; an iteration's output
/// reports state up to the last one handed over (its own changes, or earlier changes it
/// read), so it waits until that commit is durable.  A connection's output waits in
/// order: while older output of a connection is held, newer output is held behind it
/// even if the state it reports is already durable, so a later answer never overtakes an
/// earlier one.
///
/// Loop-confined, owned by `Committer` and read by `Outbox`.
///
/// It decides what waits and when it goes; the bytes that wait stay in each
/// connection's `HeldOutput`.  The commits it counts are `Committer`'s.
final class OutputGate {
  /// The last commit handed to the writer (0: none yet).
  private(set) var submitted: UInt64 = 0
  /// The last commit known durable.
  private(set) var durable: UInt64 = 0
  /// Connections with held output, in the order their output was first held.
  private var waiting: [ClientConnection] = []
  /// False while the state is not writable (`Committer`): output then waits only behind
  /// its connection's own held output, not for commits that may not come soon.
  var holdsBehindCommits = true

  /// A commit handed to the writer is not durable yet.
  var awaitsCommit: Bool { submitted > durable }

  /// Numbers the next commit.
  func next() -> UInt64 {
    submitted += 1
    return submitted
  }

  /// Output that cannot go out yet is held where it is, at the front of `output`
  /// (true); false when the connection's output may be written now, or when there is
  /// nothing of it to hold: a draining connection owed nothing is then finished at once,
  /// since no release would ever come for it.
  func hold(_ client: ClientConnection, callbacks: Bool) -> Bool {
    guard (holdsBehindCommits && submitted > durable) || !client.held.isEmpty else { return false }
    let end = client.output.count
    guard end > client.held.end else { return !client.held.isEmpty }
    if client.held.isEmpty { waiting.append(client) }
    client.held.hold(upTo: end, batch: submitted, callbacks: callbacks)
    return true
  }

  /// Commit `batch` is durable: returns the connections whose held output may include
  /// some of it (`Outbox.release` writes it).  Call `settle()` after the release.
  func advance(to batch: UInt64) -> [ClientConnection] {
    guard batch > durable else { return [] }
    durable = batch
    return waiting
  }

  /// Forgets the connections with nothing left held.
  func settle() {
    waiting.removeAll { $0.held.isEmpty || $0.condition == .closed }
  }
}
