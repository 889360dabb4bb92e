import UNModel
import UNStore

/// One batch's changes as the loop takes them from the center: the keyed rows already
/// encoded, and the pending requests and events as recorded.  `append(to:)` encodes the
/// rest into the `RowBuffer` that goes to the store's writer thread, on the loop, when
/// the batch is submitted (`Committer.submit`): the pending records are the live ones,
/// read as they are at that moment (`ChangeJournal.pending`).
///
/// Between `RecordedChanges` (the model's values, in `UNModel`) and `RowBuffer` (plain
/// bytes for the writer thread): the server's step, which knows the stored form.
struct BatchRows {
  var keyed: [StoreChange]
  var pending: [PendingChange]
  var events: [Event]
  var forgottenEvents: [RecordedChanges.ForgottenEvent]
  /// Apps wiped by `reset` in this batch, sorted: their stored event runs go.
  var resets: [String]

  /// About how many typical rows' worth of bytes `append(to:)` writes (for the list's
  /// room): a row per pending change, and the events (in runs, about half a row each).
  var rowCount: Int { pending.count + events.count / 2 + 1 }

  /// Each row is written straight into the list's buffer.  The changes are read in place,
  /// not copied out of their arrays.
  func append(to out: inout RowBuffer, runs: inout EventRuns) {
    for change in keyed { out.append(change) }
    // Pending rows are numbered by their addition sequence; their changes apply in the
    // order they happened (a row written and then removed in the same batch is gone).
    pending.withUnsafeBufferPointer { buffer in
      guard let pending = buffer.baseAddress else { return }
      for i in buffer.indices { Self.append(pending[i], to: &out) }
    }
    // The event history (`EventRuns`): a reset app's runs go; a run whose last live event
    // left the history goes; this batch's events are added, a run per app.  An event
    // that left the history in the same batch it arrived in is never written: only
    // events numbered from this batch's first one on can be such, usually none.
    for app in resets {
      for number in runs.removeAll(of: app) { out.deleteNumbered(table: Persistence.Table.eventRuns, number: number) }
    }
    let first = events.first?.sequence ?? .max
    var late: Set<UInt64> = []
    // Counted per stretch of one app's events (usually the whole batch), then forgotten
    // at once.
    var i = forgottenEvents.startIndex
    while i < forgottenEvents.endIndex {
      let app = forgottenEvents[i].app
      var stored = 0
      while i < forgottenEvents.endIndex, forgottenEvents[i].app.exactlyEquals(app) {
        if forgottenEvents[i].sequence >= first { late.insert(forgottenEvents[i].sequence) } else { stored += 1 }
        i += 1
      }
      runs.forgetOldest(stored, of: app) { out.deleteNumbered(table: Persistence.Table.eventRuns, number: $0) }
    }
    events.withUnsafeBufferPointer { buffer in
      guard let events = buffer.baseAddress else { return }
      Self.appendRuns(events, buffer.indices, skipping: late, to: &out, runs: &runs)
    }
  }

  /// Writes `events[indices]` (oldest first) as one run row per app, but those in `skip`.
  static func appendRuns(
    _ events: UnsafePointer<Event>, _ indices: Range<Int>, skipping skip: Set<UInt64>, to out: inout RowBuffer,
    runs: inout EventRuns
  ) {
    guard let start = indices.first else { return }
    // Nearly always one app's events: one pass, no grouping.
    let app = events[start].app
    var oneApp = true
    for i in indices where !events[i].app.exactlyEquals(app) {
      oneApp = false
      break
    }
    if oneApp {
      appendRun(events, indices, app: app, skipping: skip, to: &out, runs: &runs)
      return
    }
    var order: [ExactKey] = []
    var byApp: [ExactKey: [Int]] = [:]
    for i in indices {
      let app = ExactKey(events[i].app)
      if byApp[app] == nil { order.append(app) }
      byApp[app, default: []].append(i)
    }
    for app in order { appendRun(events, byApp[app]!, app: app.string, skipping: skip, to: &out, runs: &runs) }
  }

  private static func appendRun(
    _ events: UnsafePointer<Event>, _ indices: some Collection<Int>, app: String, skipping skip: Set<UInt64>,
    to out: inout RowBuffer, runs: inout EventRuns
  ) {
    let kept = skip.isEmpty ? Array(indices) : indices.filter { !skip.contains(events[$0].sequence) }
    guard let first = kept.first else { return }
    let number = StateCodec.eventNumberBase + events[first].sequence
    out.putNumbered(table: Persistence.Table.eventRuns, app: app, number: number) { row in
      // Each event is written from where the batch holds it: passed as a value next to
      // the row's `inout` buffer, it would be copied first (its strings retained).
      row.append(UInt8(ascii: "["))
      for (k, i) in kept.enumerated() {
        if k > 0 { row.append(UInt8(ascii: ",")) }
        StateCodec.eventRow(at: events + i, into: &row)
      }
      row.append(UInt8(ascii: "]"))
    }
    runs.added(app: app, number: number, live: kept.count)
  }

  private static func append(_ change: borrowing PendingChange, to out: inout RowBuffer) {
    switch change {
    case .stored(let snapshot):
      out.putNumbered(table: Persistence.Table.pending, app: snapshot.app, number: snapshot.addedSequence) {
        StateCodec.pendingRow(snapshot.view, into: &$0)
      }
    case .removed(let sequence):
      out.deleteNumbered(table: Persistence.Table.pending, number: sequence)
    }
  }
}
