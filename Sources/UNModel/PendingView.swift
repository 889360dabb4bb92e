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
  public var hasOnlyCommonContent: Bool { record.withUnsafeMutablePointerToHeader { $0.pointee.extras == nil } }

  public var identifier: String { record.identifier }
  /// The request as a value.
  public var entry: PendingRequest { record.entry }

  /// Calls `body` with the field's UTF-8 (valid only during the call).  Not generic, and
  /// reading only the two offsets it needs from the header: a listing calls this six
  /// times per request, and the generic version ran unspecialised in the server's module
  /// (with a copy of the whole header each time).
  public func withUTF8(_ field: Text, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    record.withUnsafeMutablePointers { header, elements in
      let (from, to): (UInt32, UInt32) =
        switch field {
        case .identifier: (0, header.pointee.identifierEnd)
        case .title: (header.pointee.identifierEnd, header.pointee.titleEnd)
        case .body: (header.pointee.titleEnd, header.pointee.bodyEnd)
        case .categoryIdentifier: (header.pointee.bodyEnd, header.pointee.categoryEnd)
        case .threadIdentifier: (header.pointee.categoryEnd, header.pointee.threadEnd)
        case .userInfo: (header.pointee.threadEnd, header.pointee.userInfoEnd)
        }
      body(UnsafeBufferPointer(start: elements + Int(from), count: Int(to - from)))
    }
  }

}
