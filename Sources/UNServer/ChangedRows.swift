import UNModel
import UNStore

/// One iteration's changes as the loop hands them to the store's writer: the keyed rows
/// already encoded, and the pending-request snapshots and events as recorded.  The
/// writer turns them into numbered changes (and their rows into bytes) when it commits,
/// so the loop's share of a `scheduleLocal` is copying its record.
struct ChangedRows: StoreBatch {
  var keyed: [StoreChange]
  var pending: [PendingChange]
  var events: [Event]
  var forgottenEvents: [UInt64]

  func append(to out: inout [StoreChange]) {
    out.append(contentsOf: keyed)
    // Pending rows are numbered by their addition sequence; their changes apply in the
    // order they happened (a row written and then removed in the same batch is gone).
    for change in pending {
      switch change {
      case .stored(let snapshot):
        out.append(
          .putNumbered(
            table: Persistence.Table.pending, app: snapshot.app, number: snapshot.addedSequence,
            value: PendingRowValue(snapshot: snapshot)))
      case .removed(let sequence):
        out.append(.deleteNumbered(table: Persistence.Table.pending, number: sequence))
      }
    }
    // The event history: the rows of events pushed out of it go; the new ones are added
    // (an event pushed out in the same batch it arrived in is never written).
    let forgotten = forgottenEvents.isEmpty ? [] : Set(forgottenEvents)
    for sequence in forgottenEvents {
      out.append(.deleteNumbered(table: Persistence.Table.events, number: StateCodec.eventNumberBase + sequence))
    }
    for event in events where !forgotten.contains(event.sequence) {
      out.append(
        .putNumbered(
          table: Persistence.Table.events, app: event.app, number: StateCodec.eventNumberBase + event.sequence,
          value: EventRowValue(event: event)))
    }
  }
}
