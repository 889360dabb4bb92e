import JSONRPC
import UNModel

/// The hot shapes written straight into bytes, without a `JSONValue` tree: the same
/// members, order and formatting as `ModelEncoding`'s tree (a test checks they are
/// byte-identical), with `userInfo` spliced in verbatim from its stored compact text.
enum WireBytes {
  static func key(_ k: StaticString, _ o: inout [UInt8]) { JSONWriter.appendASCII(k, to: &o) }

  static func string(_ s: String, _ o: inout [UInt8]) { JSONWriter.appendString(s, to: &o) }

  static func date(_ i: Instant, _ o: inout [UInt8]) {
    o.append(UInt8(ascii: "\""))
    i.appendRFC3339(to: &o)
    o.append(UInt8(ascii: "\""))
  }

  /// The same through a one-entry cache: answers written in the same millisecond (a
  /// burst of `scheduleLocal`, every `ping`) share their date text.
  static func date(_ i: Instant, _ o: inout [UInt8], cache: DateTextCache) {
    if cache.instant != i {
      cache.instant = i
      cache.text.removeAll(keepingCapacity: true)
      date(i, &cache.text)
    }
    o.append(contentsOf: cache.text)
  }

  static func number(_ v: JSONValue, _ o: inout [UInt8]) { JSONWriter.append(v, to: &o) }

  /// `[e,e,...]`, each element written by `element`.
  static func array<Element>(_ list: [Element], _ o: inout [UInt8], _ element: (Element, inout [UInt8]) -> Void) {
    o.append(UInt8(ascii: "["))
    for (i, e) in list.enumerated() {
      if i > 0 { o.append(UInt8(ascii: ",")) }
      element(e, &o)
    }
    o.append(UInt8(ascii: "]"))
  }

  /// A small non-negative integer, digit by digit (counts, badges).
  static func integer(_ value: Int, _ o: inout [UInt8]) {
    guard value >= 0, value < 1_000_000_000 else { return number(.int(value), &o) }
    if value < 10 {
      o.append(UInt8(truncatingIfNeeded: 48 + value))
      return
    }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
    var n = value
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
      while n > 0 {
        buffer[count] = UInt8(truncatingIfNeeded: 48 + n % 10)
        n /= 10
        count += 1
      }
      for k in stride(from: count - 1, through: 0, by: -1) { o.append(buffer[k]) }
    }
  }

  /// A content object with every field `ContentShape` lists, in its order: the ones
  /// that default to absent only when set.
  static func content(_ c: Content, _ o: inout [UInt8]) {
    var first = true
    members(c, from: 0, first: &first, &o)
    o.append(UInt8(ascii: "}"))
  }

  /// The members of `content` from the field at `start` on; `first` opens the object.
  static func members(_ c: Content, from start: Int, first: inout Bool, _ o: inout [UInt8]) {
    func name(_ i: Int) {
      o.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
      first = false
      o.append(contentsOf: ContentShape.quotedKeys[i])
    }
    for i in start..<ContentShape.fields.count {
      switch ContentShape.fields[i].kind {
      case .text(let get, _):
        name(i)
        string(get(c), &o)
      case .optionalText(let get, _):
        guard let v = get(c) else { continue }
        name(i)
        string(v, &o)
      case .optionalInteger(let get, _):
        guard let v = get(c) else { continue }
        name(i)
        integer(v, &o)
      case .integer(let get, _, _):
        name(i)
        integer(get(c), &o)
      case .score(let get, _):
        name(i)
        let v = get(c)
        if v == 0 { o.append(UInt8(ascii: "0")) } else { number(.double(v), &o) }
      case .sound:
        guard let s = c.sound else { continue }
        name(i)
        SoundShape.encode(s, &o)
      case .userInfo:
        name(i)
        o.append(contentsOf: c.userInfo.bytes)
      case .interruptionLevel:
        name(i)
        string(c.interruptionLevel.rawValue, &o)
      case .attachments:
        guard !c.attachments.isEmpty else { continue }
        name(i)
        AttachmentShape.encode(c.attachments, &o)
      }
    }
  }

  static func request(_ r: NotificationRequest, nextTriggerDate: Instant?, _ o: inout [UInt8]) {
    key(#"{"identifier":"#, &o)
    string(r.identifier, &o)
    key(#","content":"#, &o)
    content(r.content, &o)
    key(#","trigger":"#, &o)
    TriggerShape.encode(r.trigger, &o)
    if let next = nextTriggerDate {
      key(#","nextTriggerDate":"#, &o)
      date(next, &o)
    }
    o.append(UInt8(ascii: "}"))
  }

  static func pending(_ p: PendingRequest, _ o: inout [UInt8]) { request(p.request, nextTriggerDate: p.nextDate, &o) }
}

/// The last date written by `WireBytes.date(_:_:cache:)`, quoted.  Owned by the
/// dispatcher, on the loop thread.
final class DateTextCache {
  var instant: Instant?
  var text: [UInt8] = []
}
