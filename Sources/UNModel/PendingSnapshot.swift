/// A pending request that changed, for a durable store: the app and the schedule's live
/// record, read in place (`view`) when the batch is encoded, on the loop thread, at the
/// end of the iteration that changed it (`ChangeJournal.pending` says why the live
/// record is enough).
///
/// Not `Sendable`: the record is the schedule's own, which the loop goes on mutating.
public struct PendingSnapshot {
  public let app: String
  let record: PendingRecord

  init(app: String, record: PendingRecord) {
    self.app = app
    self.record = record
  }

  /// The row number: the addition sequence.
  public var addedSequence: UInt64 { record.addedSequence }
  /// The request read in place.
  public var view: PendingView { PendingView(record: record) }
}

/// One change to an app's pending requests, in a `RecordedChanges`.
public enum PendingChange {
  /// The request as it is now (added, replaced or moved to its next date).
  case stored(PendingSnapshot)
  /// The request with this addition sequence is gone (removed, or replaced by another).
  case removed(UInt64)
}
