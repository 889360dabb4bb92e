/// How a `PendingRecord`'s tail is laid out: reading its text fields in place
/// (`PendingRecordTail`) and writing a request into a new record (`PendingRecordLayout`).

extension TimeIntervalTrigger {
  /// Whether a record can keep this trigger as its seconds alone.
  var isDerivedFromSeconds: Bool { milliseconds == Self.milliseconds(seconds) }
}

/// A record's tail read in place: six end offsets of `width` bytes, then the text they
/// delimit (offsets count from the start of the text).
struct PendingRecordTail {
  let base: UnsafeMutablePointer<UInt8>
  let width: Int

  @inline(__always)
  func end(_ k: Int) -> Int {
    let raw = UnsafeRawPointer(base)
    switch width {
    case 1: return Int(base[k])
    case 2: return Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * k, as: UInt16.self)))
    default: return Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)))
    }
  }

  @inline(__always)
  func field(_ k: Int) -> UnsafeBufferPointer<UInt8> {
    let from = k == 0 ? 0 : end(k - 1)
    return UnsafeBufferPointer(start: base + PendingRecord.fieldCount * width + from, count: end(k) - from)
  }

  /// The offsets and the text.
  var count: Int { PendingRecord.fieldCount * width + end(PendingRecord.fieldCount - 1) }
}

/// Where a request's text fields go in a record's tail: their end offsets, computed
/// from the lengths before the allocation (and the narrowest width that holds them),
/// then the offsets and the bytes written in that order.
struct PendingRecordLayout {
  var ends: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
  var width = 1

  /// Borrowing: an initializer takes its arguments owned, and the request was copied
  /// (every string retained and released) to be measured.
  @inline(__always)
  init<R: ScheduledRequest>(_ r: borrowing R) {
    let id = r.withText(0) { $0.count }
    let title = id + r.withText(1) { $0.count }
    let body = title + r.withText(2) { $0.count }
    let category = body + r.withText(3) { $0.count }
    let thread = category + r.withText(4) { $0.count }
    let userInfo = thread + r.withText(5) { $0.count }
    ends = (id, title, body, category, thread, userInfo)
    width = userInfo <= Int(UInt8.max) ? 1 : userInfo <= Int(UInt16.max) ? 2 : 4
  }

  var tailCount: Int { PendingRecord.fieldCount * width + ends.5 }

  func header<R: ScheduledRequest>(
    _ r: R, anchor: Instant, nextDate: Instant, addedSequence: UInt64, heapIndex: Int
  ) -> PendingRecordHeader {
    var seconds = 0.0
    let kind: PendingRecordFlags.TriggerKind
    switch r.trigger {
    case nil: kind = .none
    case .timeInterval(let t) where t.isDerivedFromSeconds:
      seconds = t.seconds
      kind = t.repeats ? .repeatingInterval : .interval
    case .push: kind = .push
    default: kind = .boxed
    }
    let rare: PendingRareFields?
    // Matched rather than copied and compared with nil: the copy of the optional box
    // went through an outlined value-witness call.
    switch r.content.extrasBox {
    case let extras?: rare = PendingRareFields(trigger: kind == .boxed ? r.trigger : nil, extras: extras)
    case nil: rare = kind == .boxed ? PendingRareFields(trigger: r.trigger, extras: nil) : nil
    }
    return PendingRecordHeader(
      nextDate: nextDate, anchor: anchor, addedSequence: addedSequence, intervalSeconds: seconds, rare: rare,
      heapIndex: Int32(truncatingIfNeeded: heapIndex),
      flags: PendingRecordFlags(trigger: kind, endWidth: width))
  }

  func write<R: ScheduledRequest>(_ r: R, to base: UnsafeMutablePointer<UInt8>) {
    let raw = UnsafeMutableRawPointer(base)
    func store(_ k: Int, _ end: Int) {
      switch width {
      case 1: base[k] = UInt8(truncatingIfNeeded: end)
      case 2: raw.storeBytes(of: UInt16(truncatingIfNeeded: end).littleEndian, toByteOffset: 2 * k, as: UInt16.self)
      default: raw.storeBytes(of: UInt32(truncatingIfNeeded: end).littleEndian, toByteOffset: 4 * k, as: UInt32.self)
      }
    }
    store(0, ends.0)
    store(1, ends.1)
    store(2, ends.2)
    store(3, ends.3)
    store(4, ends.4)
    store(5, ends.5)
    var at = base + PendingRecord.fieldCount * width
    @inline(__always)
    func put(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard let from = bytes.baseAddress else { return }
      ShortCopy.copy(from, bytes.count, to: at)
      at += bytes.count
    }
    r.withText(0, put)
    r.withText(1, put)
    r.withText(2, put)
    r.withText(3, put)
    r.withText(4, put)
    r.withText(5, put)
  }
}
