import JSONRPC
import UNModel
import UNProtocol

/// Pending requests are the rows written most (one per `scheduleLocal` with `--state`),
/// so their row is written straight as bytes, and only with the content fields that
/// differ from their defaults: `decodePending` reads an absent field as its default.
/// Since schema 4 the row is an array, `[identifier, content, trigger, anchor, next,
/// added]`, not an object with those keys (and the identifier under `request`).
///
/// Since schema 6 the common shape is shorter still (~140 bytes instead of ~260 for a
/// typical `scheduleLocal`; every byte is paged, logged and copied back by a
/// checkpoint): content with only the common fields is positional, `[title, body,
/// userInfo, categoryIdentifier, threadIdentifier]` with the defaults at its end left
/// out, and a time-interval trigger of whole seconds is its interval, `N` (`[N]` when it
/// repeats).  Any other content is an object of the fields that differ from their
/// defaults, any other trigger the wire's object.  `decodePending` reads every form.
extension StateCodec {
  static func pendingRow(_ p: PendingRequest) -> [UInt8] {
    var o: [UInt8] = []
    o.reserveCapacity(256)
    pendingRow(p, into: &o)
    return o
  }

  static func pendingRow(_ p: PendingRequest, into o: inout [UInt8]) {
    o.append(UInt8(ascii: "["))
    WireBytes.string(p.request.identifier, &o)
    o.append(UInt8(ascii: ","))
    let c = p.request.content
    if c.hasOnlyCommonFields {
      // The five texts side by side in one buffer, each seen through its slice of it.
      let fields = [
        Array(c.title.utf8), Array(c.body.utf8), c.userInfo.bytes, Array(c.categoryIdentifier.utf8),
        Array(c.threadIdentifier.utf8),
      ]
      Array(fields.joined()).withUnsafeBufferPointer { all in
        var start = 0
        let f = fields.map { field in
          defer { start += field.count }
          return UnsafeBufferPointer(rebasing: all[start..<start + field.count])
        }
        commonContent(f[0], f[1], f[2], f[3], f[4], &o)
      }
    } else {
      changedContent(c, &o)
    }
    rowEnd(p.request.trigger, anchor: p.anchor, next: p.nextDate, added: p.addedSequence, &o)
  }

  /// Common content, positional: `[title, body, userInfo, categoryIdentifier,
  /// threadIdentifier]` up to the last field that is not at its default ("" or `{}`).
  private static func commonContent(
    _ title: UnsafeBufferPointer<UInt8>, _ body: UnsafeBufferPointer<UInt8>, _ userInfo: UnsafeBufferPointer<UInt8>,
    _ category: UnsafeBufferPointer<UInt8>, _ thread: UnsafeBufferPointer<UInt8>, _ o: inout [UInt8]
  ) {
    let count = commonFieldCount(title, body, userInfo, category, thread)
    o.append(UInt8(ascii: "["))
    for field in 0..<count {
      if field > 0 { o.append(UInt8(ascii: ",")) }
      switch field {
      case 0: JSONWriter.appendString(utf8: title, to: &o)
      case 1: JSONWriter.appendString(utf8: body, to: &o)
      case 2: if isDefaultUserInfo(userInfo) { o.append(contentsOf: "{}".utf8) } else { o.append(contentsOf: userInfo) }
      case 3: JSONWriter.appendString(utf8: category, to: &o)
      default: JSONWriter.appendString(utf8: thread, to: &o)
      }
    }
    o.append(UInt8(ascii: "]"))
  }

  /// How many of the common fields a positional content holds: up to the last one not at
  /// its default.
  private static func commonFieldCount(
    _ title: UnsafeBufferPointer<UInt8>, _ body: UnsafeBufferPointer<UInt8>, _ userInfo: UnsafeBufferPointer<UInt8>,
    _ category: UnsafeBufferPointer<UInt8>, _ thread: UnsafeBufferPointer<UInt8>
  ) -> Int {
    if !thread.isEmpty { return 5 }
    if !category.isEmpty { return 4 }
    if !isDefaultUserInfo(userInfo) { return 3 }
    if !body.isEmpty { return 2 }
    return title.isEmpty ? 0 : 1
  }

  private static func isDefaultUserInfo(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.isEmpty || bytes.count == 2  // {} (compact JSON: the only object of two bytes)
  }

  /// The interval of a time-interval trigger written as a bare number (`N`, or `[N]`
  /// when it repeats): whole seconds only, as the wire's form writes them as integers.
  private static func compactInterval(_ t: TimeIntervalTrigger) -> UInt64? {
    t.seconds == t.seconds.rounded(.towardZero) && t.seconds >= 0 && t.seconds < 1e9 ? UInt64(t.seconds) : nil
  }

  /// The trigger and the dates that close a pending row.
  private static func rowEnd(_ trigger: Trigger?, anchor: Instant, next: Instant, added: UInt64, _ o: inout [UInt8]) {
    o.append(UInt8(ascii: ","))
    if case .timeInterval(let t)? = trigger, let seconds = compactInterval(t) {
      if t.repeats { o.append(UInt8(ascii: "[")) }
      JSONWriter.appendInteger(seconds, to: &o)
      if t.repeats { o.append(UInt8(ascii: "]")) }
    } else {
      TriggerShape.encode(trigger, &o)
    }
    o.append(UInt8(ascii: ","))
    JSONWriter.appendInteger(anchor.milliseconds, to: &o)
    o.append(UInt8(ascii: ","))
    JSONWriter.appendInteger(next.milliseconds, to: &o)
    o.append(UInt8(ascii: ","))
    JSONWriter.appendInteger(added, to: &o)
    o.append(UInt8(ascii: "]"))
  }

  /// The same row written from the stored request in place: the common shape (only the
  /// common content fields, a time-interval trigger) straight from the record's bytes,
  /// anything else through the request value.  The same bytes either way (tested).
  static func pendingRow(_ v: PendingView) -> [UInt8] {
    var o: [UInt8] = []
    o.reserveCapacity(256)
    pendingRow(v, into: &o)
    return o
  }

  /// From a `PendingSnapshot` (`BatchRows`), on the loop thread.
  static func pendingRow(_ v: PendingView, into o: inout [UInt8]) {
    guard v.hasOnlyCommonContent, case .timeInterval(let t)? = v.trigger else { return pendingRow(v.entry, into: &o) }
    if plainPendingRow(v, t, &o) { return }
    v.withTexts { texts in
      o.append(UInt8(ascii: "["))
      JSONWriter.appendString(utf8: texts.identifier, to: &o)
      o.append(UInt8(ascii: ","))
      commonContent(texts.title, texts.body, texts.userInfo, texts.categoryIdentifier, texts.threadIdentifier, &o)
    }
    rowEnd(.timeInterval(t), anchor: v.anchor, next: v.nextDate, added: v.addedSequence, &o)
  }

  /// The common shape through a `RowCursor` when no text needs escaping and the interval
  /// is a whole number of seconds (as `TriggerShape.encode` then writes it): the same
  /// bytes as the path above (tested).  False: nothing written.
  private static func plainPendingRow(_ v: PendingView, _ t: TimeIntervalTrigger, _ o: inout [UInt8]) -> Bool {
    guard let seconds = compactInterval(t) else { return false }
    return v.withTexts { texts in
      let room =
        RowCursor.fixedRoom + texts.identifier.count + texts.title.count + texts.body.count + texts.userInfo.count
        + texts.categoryIdentifier.count + texts.threadIdentifier.count
      return RowCursor.write(&o, room: room) { c in
        c.byte(UInt8(ascii: "["))
        guard c.plainQuoted(texts.identifier) else { return false }
        c.ascii(",[")
        let count = commonFieldCount(
          texts.title, texts.body, texts.userInfo, texts.categoryIdentifier, texts.threadIdentifier)
        if count > 0 { guard c.plainQuoted(texts.title) else { return false } }
        if count > 1 {
          c.byte(UInt8(ascii: ","))
          guard c.plainQuoted(texts.body) else { return false }
        }
        if count > 2 {
          c.byte(UInt8(ascii: ","))
          if isDefaultUserInfo(texts.userInfo) { c.ascii("{}") } else { c.bytes(texts.userInfo) }
        }
        if count > 3 {
          c.byte(UInt8(ascii: ","))
          guard c.plainQuoted(texts.categoryIdentifier) else { return false }
        }
        if count > 4 {
          c.byte(UInt8(ascii: ","))
          guard c.plainQuoted(texts.threadIdentifier) else { return false }
        }
        c.ascii(t.repeats ? "],[" : "],")
        c.integer(seconds)
        c.ascii(t.repeats ? "]," : ",")
        c.integer(v.anchor.milliseconds)
        c.byte(UInt8(ascii: ","))
        c.integer(v.nextDate.milliseconds)
        c.byte(UInt8(ascii: ","))
        c.integer(v.addedSequence)
        c.byte(UInt8(ascii: "]"))
        return true
      }
    }
  }

  /// The content object with the fields that are not at their default values, as
  /// `ContentShape` describes them; `ContentShape.decode` reads an absent field as its
  /// default.
  static func changedContent(_ c: Content, _ o: inout [UInt8]) {
    var first = true
    ContentShape.members(c, from: 0, changedOnly: true, first: &first, &o)
    if first { o.append(UInt8(ascii: "{")) }
    o.append(UInt8(ascii: "}"))
  }
}
