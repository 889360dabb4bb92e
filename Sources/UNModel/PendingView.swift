/// A pending request read in place: its dates and trigger, and its text fields as the
/// UTF-8 bytes stored in its record, so a listing can write them out without building
/// a `PendingRequest` (several string and array allocations) for each.
///
/// Meant to be read during the visit that hands it out: it keeps its record alive, but
/// shows the record's current contents, which later calls may change.
public struct PendingView {
  let record: PendingRecord

  /// The text fields a record stores as bytes.
  public enum Text: Sendable {
    case identifier, title, body, categoryIdentifier, threadIdentifier
    /// The compact JSON text of `userInfo`.
    case userInfo
  }

  public var nextDate: Instant { record.nextDate }
  public var anchor: Instant { record.header.anchor }
  public var addedSequence: UInt64 { record.header.addedSequence }
  public var trigger: Trigger? { record.header.trigger }
  /// The content's less common fields (subtitle, badge, sound, ...) all have their
  /// defaults, so the text fields are the whole content.
  public var hasOnlyCommonContent: Bool { record.header.extras == nil }

  public var identifier: String { record.identifier }
  /// The request as a value.
  public var entry: PendingRequest { record.entry }

  /// Calls `body` with the field's UTF-8 (valid only during the call).
  public func withUTF8<R>(_ field: Text, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    // Reads the two offsets through the header's pointer: copying the whole header would
    // retain and release the trigger and extras it references.
    record.withUnsafeMutablePointers { header, elements in
      let h = UnsafePointer(header)
      let (from, to): (UInt32, UInt32) =
        switch field {
        case .identifier: (0, h.pointee.identifierEnd)
        case .title: (h.pointee.identifierEnd, h.pointee.titleEnd)
        case .body: (h.pointee.titleEnd, h.pointee.bodyEnd)
        case .categoryIdentifier: (h.pointee.bodyEnd, h.pointee.categoryEnd)
        case .threadIdentifier: (h.pointee.categoryEnd, h.pointee.threadEnd)
        case .userInfo: (h.pointee.threadEnd, h.pointee.userInfoEnd)
        }
      return body(UnsafeBufferPointer(start: elements + Int(from), count: Int(to - from)))
    }
  }

  /// Every text field's UTF-8 at once (valid only during the call): one visit of the
  /// record for a writer that reads them all.
  public func withTexts<R>(_ body: (PendingTexts) -> R) -> R {
    record.withUnsafeMutablePointers { header, elements in
      let h = UnsafePointer(header)
      func field(_ from: UInt32, _ to: UInt32) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: elements + Int(from), count: Int(to - from))
      }
      return body(
        PendingTexts(
          identifier: field(0, h.pointee.identifierEnd), title: field(h.pointee.identifierEnd, h.pointee.titleEnd),
          body: field(h.pointee.titleEnd, h.pointee.bodyEnd),
          categoryIdentifier: field(h.pointee.bodyEnd, h.pointee.categoryEnd),
          threadIdentifier: field(h.pointee.categoryEnd, h.pointee.threadEnd),
          userInfo: field(h.pointee.threadEnd, h.pointee.userInfoEnd)))
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
