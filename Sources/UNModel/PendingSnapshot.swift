/// A pending request as it was when it changed, for a durable store to write on its own
/// thread: the loop records it by copying the request's compact record (one allocation),
/// and the store's writer reads it through `view` and encodes the row there.
///
/// `@unchecked Sendable` (a `PendingRecord` is a `ManagedBuffer`, which is not): the
/// record is a private copy made when the change was recorded.  No schedule holds it and
/// nothing writes to it after the copy (a `PendingView` only reads), so whichever
/// thread holds the snapshot reads memory no other thread changes.  What its header
/// references (`PendingRareFields`: the boxed trigger and the content's extras) is
/// immutable and `Sendable`, shared by the live record and the copy.
public struct PendingSnapshot: @unchecked Sendable {
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

/// One change to an app's pending requests, in a `ChangeSet`.
public enum PendingChange: Sendable {
  /// The request as it is now (added, replaced or moved to its next date).
  case stored(PendingSnapshot)
  /// The request with this addition sequence is gone (removed, or replaced by another).
  case removed(UInt64)
}
