/// A pending request read in place: its dates and trigger, and its text fields as the
/// UTF-8 bytes stored in its record, so a listing can write them out without building
/// a `PendingRequest` (several string and array allocations) for each.
///
/// Meant to be read during the visit that hands it out: it keeps its record alive, but
/// shows the record's current contents, which later calls may change.
public struct PendingView {
  let record: PendingRecord

  public var nextDate: Instant { record.nextDate }
  public var anchor: Instant { record.header.anchor }
  public var addedSequence: UInt64 { record.header.addedSequence }
  public var trigger: Trigger? { record.trigger }
  /// The content's less common fields (subtitle, badge, sound, ...) all have their
  /// defaults, so the text fields are the whole content.
  public var hasOnlyCommonContent: Bool { record.extras == nil }

  public var identifier: String { record.identifier }
  /// The request as a value.
  public var entry: PendingRequest { record.entry }

  /// Every text field's UTF-8 at once (valid only during the call): one visit of the
  /// record for a writer that reads them all.  Not generic: a listing calls it once per
  /// request, and a generic version ran unspecialised in the server's module.
  public func visitTexts(_ body: (PendingTexts) -> Void) {
    record.withTexts { f in
      body(
        PendingTexts(
          identifier: f(0), title: f(1), body: f(2), categoryIdentifier: f(3), threadIdentifier: f(4), userInfo: f(5)))
    }
  }

  /// Every text field's UTF-8 at once (valid only during the call): one visit of the
  /// record for a writer that reads them all.
  public func withTexts<R>(_ body: (PendingTexts) -> R) -> R {
    record.withTexts { f in
      body(
        PendingTexts(
          identifier: f(0), title: f(1), body: f(2), categoryIdentifier: f(3), threadIdentifier: f(4), userInfo: f(5)))
    }
  }
}

/// A pending request's text fields as the UTF-8 its record stores (`withTexts`).
public struct PendingTexts {
  public let identifier: UnsafeBufferPointer<UInt8>
  public let title: UnsafeBufferPointer<UInt8>
  public let body: UnsafeBufferPointer<UInt8>
  public let categoryIdentifier: UnsafeBufferPointer<UInt8>
  public let threadIdentifier: UnsafeBufferPointer<UInt8>
  /// The compact JSON text of `userInfo`.
  public let userInfo: UnsafeBufferPointer<UInt8>
}
