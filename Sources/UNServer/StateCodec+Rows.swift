import JSONRPC
import UNModel

/// Pending requests are the rows written most (one per `scheduleLocal` with `--state`),
/// so their row is written straight as bytes, and only with the content fields that
/// differ from their defaults: `decodePending` reads an absent field as its default.
/// Since schema 4 the row is an array, `[identifier, content, trigger, anchor, next,
/// added]`, not an object with those keys (and the identifier under `request`): ~70
/// bytes less of ~310 for SQLite to page, log, checksum and copy back.  Typically 240
/// bytes instead of 450.  `decodePending` reads both forms.
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
    changedContent(p.request.content, &o)
    rowEnd(p.request.trigger, anchor: p.anchor, next: p.nextDate, added: p.addedSequence, &o)
  }

  /// The trigger and the dates that close a pending row.
  private static func rowEnd(_ trigger: Trigger?, anchor: Instant, next: Instant, added: UInt64, _ o: inout [UInt8]) {
    o.append(UInt8(ascii: ","))
    TriggerShape.encode(trigger, &o)
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

  /// From a `PendingSnapshot` (`ChangedRows`), on the loop thread.
  static func pendingRow(_ v: PendingView, into o: inout [UInt8]) {
    guard v.hasOnlyCommonContent, case .timeInterval(let t)? = v.trigger else { return pendingRow(v.entry, into: &o) }
    if plainPendingRow(v, t, &o) { return }
    v.withTexts { texts in
      o.append(UInt8(ascii: "["))
      JSONWriter.appendString(utf8: texts.identifier, to: &o)
      o.append(UInt8(ascii: ","))
      var first = true
      func text(_ key: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, raw: Bool = false) {
        guard !bytes.isEmpty, !(raw && bytes.count == 2) else { return }  // "" and {} are defaults
        o.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        first = false
        WireBytes.key(key, &o)
        if raw { o.append(contentsOf: bytes) } else { JSONWriter.appendString(utf8: bytes, to: &o) }
      }
      text(#""title":"#, texts.title)
      text(#""body":"#, texts.body)
      text(#""userInfo":"#, texts.userInfo, raw: true)
      text(#""categoryIdentifier":"#, texts.categoryIdentifier)
      text(#""threadIdentifier":"#, texts.threadIdentifier)
      if first { o.append(UInt8(ascii: "{")) }
      o.append(UInt8(ascii: "}"))
    }
    rowEnd(.timeInterval(t), anchor: v.anchor, next: v.nextDate, added: v.addedSequence, &o)
  }

  /// The common shape through a `RowCursor` when no text needs escaping and the interval
  /// is a whole number of seconds (as `TriggerShape.encode` then writes it): the same
  /// bytes as the path above (tested).  False: nothing written.
  private static func plainPendingRow(_ v: PendingView, _ t: TimeIntervalTrigger, _ o: inout [UInt8]) -> Bool {
    guard t.seconds == t.seconds.rounded(.towardZero), t.seconds >= 0, t.seconds < 1e9 else { return false }
    return v.withTexts { texts in
      let room =
        RowCursor.fixedRoom + texts.identifier.count + texts.title.count + texts.body.count + texts.userInfo.count
        + texts.categoryIdentifier.count + texts.threadIdentifier.count
      return RowCursor.write(&o, room: room) { c in
        c.byte(UInt8(ascii: "["))
        guard c.plainQuoted(texts.identifier) else { return false }
        c.byte(UInt8(ascii: ","))
        var first = true
        func text(_ key: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
          guard !bytes.isEmpty else { return true }  // "" is the default
          c.byte(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
          first = false
          c.ascii(key)
          return c.plainQuoted(bytes)
        }
        guard text(#""title":"#, texts.title), text(#""body":"#, texts.body) else { return false }
        if !texts.userInfo.isEmpty, texts.userInfo.count != 2 {  // {} is the default
          c.byte(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
          first = false
          c.ascii(#""userInfo":"#)
          c.bytes(texts.userInfo)
        }
        guard text(#""categoryIdentifier":"#, texts.categoryIdentifier),
          text(#""threadIdentifier":"#, texts.threadIdentifier)
        else { return false }
        if first { c.byte(UInt8(ascii: "{")) }
        c.ascii(#"},{"type":"timeInterval","timeInterval":"#)
        c.integer(UInt64(t.seconds))
        c.ascii(t.repeats ? #","repeats":true},"# : #","repeats":false},"#)
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
