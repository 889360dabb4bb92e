/// Where a connection's output that waits for commits ends, with `--state`: the held
/// bytes stay at the front of the connection's `output`, and a mark per iteration says
/// where that iteration's part ends, which commit it waits for and whether it has
/// callbacks.  Holding an iteration's output adds a mark; releasing writes the ready front
/// of `output` in one piece and drops the marks.  The bytes are never copied aside:
/// holding them in separate per-iteration arrays cost a fresh output array per hold and,
/// on release, a new array gathering the parts, on every `scheduleLocal` (see
/// BENCHMARKS.md).
///
/// A value in `ClientConnection`, changed by `OutputGate` and `Outbox` on the loop.
///
/// The per-connection half of holding output; `OutputGate` is the daemon-wide half
/// (which commit is durable, which connections hold output).
struct HeldOutput {
  struct Mark {
    /// The commit this part waits for.
    var batch: UInt64
    /// Where the part ends in `output`.
    var end: Int
    /// It holds callbacks: released before the answers of the same commit.
    var callbacks: Bool
  }

  /// Oldest first; their `end`s increase.
  private(set) var marks: [Mark] = []

  var isEmpty: Bool { marks.isEmpty }

  /// How many bytes at the front of `output` are held.
  var end: Int { marks.last?.end ?? 0 }

  /// The output up to `end` waits for commit `batch`.
  mutating func hold(upTo end: Int, batch: UInt64, callbacks: Bool) {
    marks.append(Mark(batch: batch, end: end, callbacks: callbacks))
  }

  /// The front parts whose commits are durable once `batch` is: how many, where the last
  /// one ends, and whether any has callbacks (`count` 0: none is ready).
  func ready(upTo batch: UInt64) -> (count: Int, end: Int, callbacks: Bool) {
    var count = 0
    var callbacks = false
    while count < marks.count, marks[count].batch <= batch {
      callbacks = callbacks || marks[count].callbacks
      count += 1
    }
    return (count, count == 0 ? 0 : marks[count - 1].end, callbacks)
  }

  /// The first `count` parts, which end at `end`, left the front of `output`.
  mutating func removeFirst(_ count: Int, end: Int) {
    if count == marks.count {
      marks.removeAll(keepingCapacity: true)
      return
    }
    marks.removeFirst(count)
    for i in marks.indices { marks[i].end -= end }
  }

  mutating func removeAll() { marks.removeAll() }
}
