#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fixed-size part of a `PendingRecord`: the dates and sequence the schedule orders
/// and fires by, the trigger, the content's rare fields, and where each text field ends
/// in the record's byte tail.
struct PendingRecordHeader {
  var nextDate: Instant
  var anchor: Instant
  var addedSequence: UInt64
  var trigger: Trigger?
  /// The content's uncommon fields, shared with the `Content` they came from (nil when
  /// all are defaults, as for nearly every request).
  var extras: Content.Box?
  /// Position in the schedule's heap, so a swap updates two integers.
  var heapIndex: Int32
  /// End offsets in the tail of: identifier, title, body, category, thread, userInfo.
  var identifierEnd: UInt32
  var titleEnd: UInt32
  var bodyEnd: UInt32
  var categoryEnd: UInt32
  var threadEnd: UInt32
  var userInfoEnd: UInt32
  /// The identifier is ASCII: byte order is then exactly `String` order.
  var identifierIsASCII: Bool
}

/// One pending request in one allocation: the header, then the UTF-8 of the identifier,
/// title, body, category and thread identifiers and the compact `userInfo` text, back to
/// back.  A `PendingRequest` holds several separately allocated strings and arrays;
/// a daemon with hundreds of thousands pending keeps this instead (about a third of the
/// memory) and builds the value type only when one is read (firing, listing).
///
/// Not `Sendable` (no `ManagedBuffer` is): records are only reachable through a
/// schedule's storage, which the loop thread alone owns and mutates (the `Center` is
/// loop-bound); a copied schedule copies its records before it mutates them.
final class PendingRecord: ManagedBuffer<PendingRecordHeader, UInt8> {
  /// A new record holding `request` with its dates (its heap position is set when it
  /// joins a heap).
  static func make(_ request: NotificationRequest, anchor: Instant, nextDate: Instant, addedSequence: UInt64)
    -> PendingRecord
  {
    let ends = Layout(request)
    let made = create(minimumCapacity: Int(ends.userInfoEnd)) { _ in
      ends.header(request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence, heapIndex: 0)
    }
    let record = unsafeDowncast(made, to: PendingRecord.self)
    record.withUnsafeMutablePointerToElements { Layout.write(request, to: $0) }
    return record
  }

  /// Stores `request` (same identifier bytes) and its dates in this record when its
  /// bytes fit the allocation; false when a larger record is needed.
  func overwrite(_ request: NotificationRequest, anchor: Instant, nextDate: Instant, addedSequence: UInt64) -> Bool {
    let ends = Layout(request)
    guard Int(ends.userInfoEnd) <= capacity else { return false }
    header = ends.header(
      request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence, heapIndex: heapIndex)
    withUnsafeMutablePointerToElements { Layout.write(request, to: $0) }
    return true
  }

  /// A copy with the same contents (copy-on-write of a shared schedule).
  func clone() -> PendingRecord {
    let n = Int(header.userInfoEnd)
    let made = PendingRecord.create(minimumCapacity: n) { _ in header }
    let record = unsafeDowncast(made, to: PendingRecord.self)
    withUnsafeMutablePointerToElements { from in
      record.withUnsafeMutablePointerToElements { $0.update(from: from, count: n) }
    }
    return record
  }

  var nextDate: Instant { header.nextDate }
  var addedSequence: UInt64 { header.addedSequence }

  var heapIndex: Int {
    get { Int(header.heapIndex) }
    set { header.heapIndex = Int32(truncatingIfNeeded: newValue) }
  }

  /// Calls `body` with the identifier's UTF-8.
  @inline(__always)
  func withIdentifier<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    let n = Int(header.identifierEnd)
    return withUnsafeMutablePointerToElements { body(UnsafeBufferPointer(start: $0, count: n)) }
  }

  func hasIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    withIdentifier { own in
      own.count == bytes.count && (own.count == 0 || memcmp(own.baseAddress!, bytes.baseAddress!, own.count) == 0)
    }
  }

  var identifier: String { withIdentifier { String(decoding: $0, as: UTF8.self) } }

  /// The request as the value type the rest of the model uses.
  var entry: PendingRequest {
    let h = header
    return withUnsafeMutablePointerToElements { base in
      func text(_ from: UInt32, _ to: UInt32) -> String {
        String(decoding: UnsafeBufferPointer(start: base + Int(from), count: Int(to - from)), as: UTF8.self)
      }
      let content = Content(
        title: text(h.identifierEnd, h.titleEnd), body: text(h.titleEnd, h.bodyEnd),
        categoryIdentifier: text(h.bodyEnd, h.categoryEnd), threadIdentifier: text(h.categoryEnd, h.threadEnd),
        userInfo: JSONText(
          bytes: Array(UnsafeBufferPointer(start: base + Int(h.threadEnd), count: Int(h.userInfoEnd - h.threadEnd)))),
        extras: h.extras)
      return PendingRequest(
        request: NotificationRequest(identifier: text(0, h.identifierEnd), content: content, trigger: h.trigger),
        anchor: h.anchor, nextDate: h.nextDate, addedSequence: h.addedSequence)
    }
  }

  /// Identifier order, as `String` compares them (the tie-break of equal dates).
  /// ASCII compares as its bytes (the same order, without building strings).
  static func identifierLess(_ a: PendingRecord, _ b: PendingRecord) -> Bool {
    if a.header.identifierIsASCII, b.header.identifierIsASCII {
      return a.withIdentifier { x in b.withIdentifier { y in bytesLess(x, y) } }
    }
    return a.identifier < b.identifier
  }

  /// Whether the (date, identifier) cursor comes strictly before `b`.
  static func precedes(_ key: (Instant, String), _ b: PendingRecord) -> Bool {
    key.0 < b.header.nextDate || (key.0 == b.header.nextDate && key.1 < b.identifier)
  }

  /// Lexicographic byte order, a proper prefix first: `String` order for ASCII.
  static func bytesLess(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = min(x.count, y.count)
    if n > 0 {
      let c = memcmp(x.baseAddress!, y.baseAddress!, n)
      if c != 0 { return c < 0 }
    }
    return x.count < y.count
  }
}

/// Where a request's text fields go in a record's tail: their end offsets, computed
/// from the lengths before the allocation, then their bytes written in that order.
private struct Layout {
  var identifierEnd: UInt32 = 0
  var titleEnd: UInt32 = 0
  var bodyEnd: UInt32 = 0
  var categoryEnd: UInt32 = 0
  var threadEnd: UInt32 = 0
  var userInfoEnd: UInt32 = 0
  var identifierIsASCII = false

  init(_ r: NotificationRequest) {
    var end = 0
    func next(_ n: Int) -> UInt32 {
      end += n
      return UInt32(end)
    }
    identifierEnd = next(r.identifier.utf8.count)
    titleEnd = next(r.content.title.utf8.count)
    bodyEnd = next(r.content.body.utf8.count)
    categoryEnd = next(r.content.categoryIdentifier.utf8.count)
    threadEnd = next(r.content.threadIdentifier.utf8.count)
    userInfoEnd = next(r.content.userInfo.bytes.count)
    identifierIsASCII = withUTF8Bytes(r.identifier) { bytes in bytes.allSatisfy { $0 < 0x80 } }
  }

  func header(
    _ r: NotificationRequest, anchor: Instant, nextDate: Instant, addedSequence: UInt64, heapIndex: Int
  ) -> PendingRecordHeader {
    PendingRecordHeader(
      nextDate: nextDate, anchor: anchor, addedSequence: addedSequence, trigger: r.trigger,
      extras: r.content.extrasBox, heapIndex: Int32(truncatingIfNeeded: heapIndex),
      identifierEnd: identifierEnd, titleEnd: titleEnd, bodyEnd: bodyEnd, categoryEnd: categoryEnd,
      threadEnd: threadEnd, userInfoEnd: userInfoEnd, identifierIsASCII: identifierIsASCII)
  }

  static func write(_ r: NotificationRequest, to base: UnsafeMutablePointer<UInt8>) {
    var at = base
    func put(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
      at.update(from: from, count: bytes.count)
      at += bytes.count
    }
    withUTF8Bytes(r.identifier, put)
    withUTF8Bytes(r.content.title, put)
    withUTF8Bytes(r.content.body, put)
    withUTF8Bytes(r.content.categoryIdentifier, put)
    withUTF8Bytes(r.content.threadIdentifier, put)
    r.content.userInfo.bytes.withUnsafeBufferPointer(put)
  }
}
