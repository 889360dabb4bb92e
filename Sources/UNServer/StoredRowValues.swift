import UNModel
import UNStore

/// The rows written most with `--state` (a pending request and an event per
/// `scheduleLocal`), handed to the store as snapshots and encoded by the store when it
/// writes them, on its writer thread: the loop thread only copies what changed.

/// A pending request's row, from the copy of its record taken when it changed.
struct PendingRowValue: StoredValue {
  let snapshot: PendingSnapshot

  func write(into bytes: inout [UInt8]) { StateCodec.pendingRow(snapshot.view, into: &bytes) }
}

/// An event's row (events are values).
struct EventRowValue: StoredValue {
  let event: Event

  func write(into bytes: inout [UInt8]) { StateCodec.eventRow(event, into: &bytes) }
}
