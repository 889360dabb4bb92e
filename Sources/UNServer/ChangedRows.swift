import UNModel
import UNStore

/// One batch's changes as the loop takes them from the center: the keyed rows already
/// encoded, and the pending requests and events as recorded.  `append(to:)` encodes the
/// rest into the `ChangeList` that goes to the store's writer thread, on the loop, when
/// the batch is submitted (`Commits.submit`): the pending records are the live ones,
/// read as they are at that moment (`ChangeJournal.pending`).
struct ChangedRows {
  var keyed: [StoreChange]
  var pending: [PendingChange]
  var events: [Event]
  var forgottenEvents: [UInt64]

  /// About how many numbered rows `append(to:)` writes.
  var rowCount: Int { pending.count + events.count + forgottenEvents.count }

  /// Each row is written straight into the list's buffer.  The changes are read in place,
  /// not copied out of their arrays.
  func append(to out: inout ChangeList) {
    for change in keyed { out.append(change) }
    // Pending rows are numbered by their addition sequence; their changes apply in the
    // order they happened (a row written and then removed in the same batch is gone).
    pending.withUnsafeBufferPointer { buffer in
      guard let pending = buffer.baseAddress else { return }
      for i in buffer.indices { Self.append(pending[i], to: &out) }
    }
    // The event history: the rows of events pushed out of it go; the new ones are added.
    // An event pushed out in the same batch it arrived in is never written: only events
    // numbered from this batch's first one on can be such, usually none.
    let first = events.first?.sequence ?? .max
    let late = forgottenEvents.filter { $0 >= first }
    let forgotten = late.isEmpty ? [] : Set(late)
    for sequence in forgottenEvents {
      out.deleteNumbered(table: Persistence.Table.events, number: StateCodec.eventNumberBase + sequence)
    }
    events.withUnsafeBufferPointer { buffer in
      // Through the pointer, whose subscript lends the element in place (the buffer's
      // returns a copy), and the row is written from the event's address: passed as a
      // value next to the row's `inout` buffer, the event would be copied first.
      guard let events = buffer.baseAddress else { return }
      for i in buffer.indices where forgotten.isEmpty || !forgotten.contains(events[i].sequence) {
        out.putNumbered(
          table: Persistence.Table.events, app: events[i].app, number: StateCodec.eventNumberBase + events[i].sequence
        ) { StateCodec.eventRow(at: events + i, into: &$0) }
      }
    }
  }

  private static func append(_ change: borrowing PendingChange, to out: inout ChangeList) {
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
