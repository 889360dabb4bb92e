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

  /// `,"name":"value"`, with the common empty value written as one constant.
  @inline(__always)
  static func field(_ k: StaticString, empty: StaticString, _ value: String, _ o: inout [UInt8]) {
    if value.isEmpty {
      key(empty, &o)
    } else {
      key(k, &o)
      string(value, &o)
    }
  }

  static func number(_ v: JSONValue, _ o: inout [UInt8]) { JSONWriter.append(v, to: &o) }

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

  static func content(_ c: Content, _ o: inout [UInt8]) {
    key(#"{"title":"#, &o)
    string(c.title, &o)
    field(#","subtitle":"#, empty: #","subtitle":"""#, c.subtitle, &o)
    key(#","body":"#, &o)
    string(c.body, &o)
    if let b = c.badge {
      key(#","badge":"#, &o)
      integer(b, &o)
    }
    if let s = c.sound {
      if s.isPlain, s.name == nil {
        key(#","sound":"default""#, &o)
      } else {
        key(#","sound":"#, &o)
        JSONWriter.append(ModelEncoding.sound(s), to: &o)
      }
    }
    key(#","userInfo":"#, &o)
    o.append(contentsOf: c.userInfo.bytes)
    key(#","categoryIdentifier":"#, &o)
    string(c.categoryIdentifier, &o)
    key(#","threadIdentifier":"#, &o)
    string(c.threadIdentifier, &o)
    field(#","summaryArgument":"#, empty: #","summaryArgument":"""#, c.summaryArgument, &o)
    key(#","summaryArgumentCount":"#, &o)
    integer(c.summaryArgumentCount, &o)
    if let t = c.targetContentIdentifier {
      key(#","targetContentIdentifier":"#, &o)
      string(t, &o)
    }
    if c.interruptionLevel == .active {
      key(#","interruptionLevel":"active""#, &o)
    } else {
      key(#","interruptionLevel":"#, &o)
      string(c.interruptionLevel.rawValue, &o)
    }
    key(#","relevanceScore":"#, &o)
    if c.relevanceScore == 0 { o.append(UInt8(ascii: "0")) } else { number(.double(c.relevanceScore), &o) }
    field(#","launchImageName":"#, empty: #","launchImageName":"""#, c.launchImageName, &o)
    if let f = c.filterCriteria {
      key(#","filterCriteria":"#, &o)
      string(f, &o)
    }
    if !c.attachments.isEmpty {
      key(#","attachments":"#, &o)
      JSONWriter.append(.array(c.attachments.map(ModelEncoding.attachment)), to: &o)
    }
    o.append(UInt8(ascii: "}"))
  }

  static func request(_ r: NotificationRequest, nextTriggerDate: Instant?, _ o: inout [UInt8]) {
    key(#"{"identifier":"#, &o)
    string(r.identifier, &o)
    key(#","content":"#, &o)
    content(r.content, &o)
    key(#","trigger":"#, &o)
    switch r.trigger {
    case .timeInterval(let t)?:
      key(#"{"type":"timeInterval","timeInterval":"#, &o)
      if t.seconds == t.seconds.rounded(.towardZero), t.seconds < 1e9 { integer(Int(t.seconds), &o) } else { number(.double(t.seconds), &o) }
      key(t.repeats ? #","repeats":true}"# : #","repeats":false}"#, &o)
    case let other:
      JSONWriter.append(ModelEncoding.trigger(other), to: &o)
    }
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
