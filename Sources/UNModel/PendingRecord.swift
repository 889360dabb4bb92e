#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fixed-size part of a `PendingRecord` (45 bytes): the dates and sequence the
/// schedule orders and fires by, the trigger, and flags saying how to read the tail.
///
/// Nearly every request has a plain time-interval trigger and default extras: that
/// trigger is kept as its seconds and two flag bits (its milliseconds are derived from
/// the seconds, as `TimeIntervalTrigger` derives them), and the reference to anything
/// else is nil.
struct PendingRecordHeader {
  var nextDate: Instant
  var anchor: Instant
  var addedSequence: UInt64
  /// The time-interval trigger's seconds, when `flags` says the trigger is inline.
  var intervalSeconds: Double
  /// A trigger not kept inline and the content's uncommon fields (nil when there are
  /// neither, as for nearly every request).
  var rare: PendingRareFields?
  /// Position in the schedule's heap, so a swap updates two integers.
  var heapIndex: Int32
  var flags: PendingRecordFlags
}

/// What a record keeps out of line: shared with the request it came from, not copied.
final class PendingRareFields: Sendable {
  /// A trigger that `PendingRecordFlags.TriggerKind` cannot hold inline (calendar, or a
  /// time interval whose milliseconds are not the ones its seconds give).
  let trigger: Trigger?
  let extras: Content.Box?

  init(trigger: Trigger?, extras: Content.Box?) {
    self.trigger = trigger
    self.extras = extras
  }
}

/// A record's flag byte: the trigger's kind (bits 0-2) and the width of the end offsets
/// in the tail (bits 4-5: 1, 2 or 4 bytes).
struct PendingRecordFlags {
  var bits: UInt8

  enum TriggerKind: UInt8 {
    case none = 0
    case interval, repeatingInterval, push
    /// In `PendingRareFields.trigger`.
    case boxed
  }

  init(trigger: TriggerKind, endWidth: Int) {
    let widthCode: UInt8 = endWidth == 1 ? 0 : endWidth == 2 ? 1 : 2
    bits = trigger.rawValue | widthCode << 4
  }

  var trigger: TriggerKind { TriggerKind(rawValue: bits & 7)! }
  /// Bytes per end offset: 1, 2 or 4.
  var endWidth: Int { 1 << Int((bits >> 4) & 3) }
}

/// One pending request in one allocation: the header, then a tail of the end offsets of
/// the six text fields (identifier, title, body, category and thread identifiers, the
/// compact `userInfo` text) followed by their UTF-8, back to back.  The offsets take one
/// byte each when the text is under 256 bytes (a typical request), else two or four.
/// A `PendingRequest` holds several separately allocated strings and arrays; a daemon
/// with hundreds of thousands pending keeps this instead and builds the value type only
/// when one is read (firing, listing).
///
/// Not `Sendable` (no `ManagedBuffer` is): records are only reachable through a
/// schedule's storage, which the loop thread alone owns and mutates (the `Center` is
/// loop-bound); a copied schedule copies its records before it mutates them.
final class PendingRecord: ManagedBuffer<PendingRecordHeader, UInt8> {
  /// The six text fields, in tail order (`PendingTexts` in the same order).
  static let fieldCount = 6

  /// A new record holding `request` with its dates (its heap position is set when it
  /// joins a heap).
  static func make<R: ScheduledRequest>(
    _ request: R, anchor: Instant, nextDate: Instant, addedSequence: UInt64
  ) -> PendingRecord {
    let layout = PendingRecordLayout(request)
    // The header is made before, not inside, `create`'s closure: capturing the request
    // there copied it (every string and array retained and released again).
    let header = layout.header(request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence, heapIndex: 0)
    let made = create(minimumCapacity: layout.tailCount) { _ in header }
    let record = unsafeDowncast(made, to: PendingRecord.self)
    record.withUnsafeMutablePointerToElements { layout.write(request, to: $0) }
    return record
  }

  /// Stores `request` (same identifier bytes) and its dates in this record when its
  /// bytes fit the allocation; false when a larger record is needed.
  func overwrite<R: ScheduledRequest>(
    _ request: R, anchor: Instant, nextDate: Instant, addedSequence: UInt64
  ) -> Bool {
    let layout = PendingRecordLayout(request)
    guard layout.tailCount <= capacity else { return false }
    header = layout.header(
      request, anchor: anchor, nextDate: nextDate, addedSequence: addedSequence, heapIndex: heapIndex)
    withUnsafeMutablePointerToElements { layout.write(request, to: $0) }
    return true
  }

  /// A copy with the same contents (copy-on-write of a shared schedule).
  func clone() -> PendingRecord {
    let n = tailCount
    let made = PendingRecord.create(minimumCapacity: n) { _ in header }
    let record = unsafeDowncast(made, to: PendingRecord.self)
    withUnsafeMutablePointerToElements { from in
      record.withUnsafeMutablePointerToElements { $0.update(from: from, count: n) }
    }
    return record
  }

  // The header is read through its pointer: `ManagedBuffer.header` is a class's stored
  // property, and each access to it is checked for exclusivity at run time.
  var nextDate: Instant { withUnsafeMutablePointerToHeader { $0.pointee.nextDate } }
  var addedSequence: UInt64 { withUnsafeMutablePointerToHeader { $0.pointee.addedSequence } }

  var heapIndex: Int {
    get { Int(withUnsafeMutablePointerToHeader { $0.pointee.heapIndex }) }
    set { withUnsafeMutablePointerToHeader { $0.pointee.heapIndex = Int32(truncatingIfNeeded: newValue) } }
  }

  var trigger: Trigger? {
    let h = header
    switch h.flags.trigger {
    case .none: return nil
    case .interval, .repeatingInterval:
      return .timeInterval(
        TimeIntervalTrigger(unchecked: h.intervalSeconds, repeats: h.flags.trigger == .repeatingInterval))
    case .push: return .push
    case .boxed: return h.rare?.trigger
    }
  }

  var extras: Content.Box? { header.rare?.extras }

  /// Bytes in use in the tail: the offsets and the text.
  private var tailCount: Int {
    withUnsafeMutablePointers { PendingRecordTail(base: $1, width: $0.pointee.flags.endWidth).count }
  }

  /// Calls `body` with the UTF-8 of text field `k` (0 = identifier ... 5 = userInfo).
  @inline(__always)
  func withText<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    // Through the pointers: `header.flags` would copy the whole header (and retain its
    // side object) on every field read of a listing.
    withUnsafeMutablePointers { header, base in
      body(PendingRecordTail(base: base, width: header.pointee.flags.endWidth).field(k))
    }
  }

  /// Calls `body` with a function that gives the UTF-8 of text field `k`, for a reader
  /// of several fields: the offsets' width is read once.
  @inline(__always)
  func withTexts<R>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>) -> R) -> R {
    withUnsafeMutablePointers { header, base in
      let tail = PendingRecordTail(base: base, width: header.pointee.flags.endWidth)
      return body { tail.field($0) }
    }
  }

  /// Calls `body` with the identifier's UTF-8.
  @inline(__always)
  func withIdentifier<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { withText(0, body) }

  func hasIdentifier(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    withIdentifier { own in
      own.count == bytes.count && (own.count == 0 || memcmp(own.baseAddress!, bytes.baseAddress!, own.count) == 0)
    }
  }

  var identifier: String { withIdentifier { String(decoding: $0, as: UTF8.self) } }

  /// The request as the value type the rest of the model uses.
  var entry: PendingRequest {
    let h = header
    let trigger = trigger
    return withUnsafeMutablePointerToElements { base in
      let tail = PendingRecordTail(base: base, width: h.flags.endWidth)
      func text(_ k: Int) -> String { String(decoding: tail.field(k), as: UTF8.self) }
      let content = Content(
        title: text(1), body: text(2), categoryIdentifier: text(3), threadIdentifier: text(4),
        userInfo: JSONText(bytes: Array(tail.field(5))), extras: h.rare?.extras)
      return PendingRequest(
        request: NotificationRequest(identifier: text(0), content: content, trigger: trigger),
        anchor: h.anchor, nextDate: h.nextDate, addedSequence: h.addedSequence)
    }
  }

  /// Identifier order (the tie-break of equal dates): their UTF-8 bytes, which is code
  /// point order, as identifiers are compared literally (`ExactKey`).  `String`'s order
  /// is that of canonical equivalence, under which two spellings of one text are
  /// neither before nor after each other, and a page of `listPending` could end
  /// between them and skip one.
  static func identifierLess(_ a: PendingRecord, _ b: PendingRecord) -> Bool {
    a.withIdentifier { x in b.withIdentifier { y in bytesLess(x, y) } }
  }

  /// Whether the (date, identifier) cursor comes strictly before `b`.
  static func precedes(_ key: (Instant, String), _ b: PendingRecord) -> Bool {
    key.0 < b.nextDate
      || (key.0 == b.nextDate && withUTF8Bytes(key.1) { k in b.withIdentifier { bytesLess(k, $0) } })
  }

  /// Lexicographic byte order, a proper prefix first.
  static func bytesLess(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
    let n = min(x.count, y.count)
    if n > 0 {
      let c = memcmp(x.baseAddress!, y.baseAddress!, n)
      if c != 0 { return c < 0 }
    }
    return x.count < y.count
  }
}
