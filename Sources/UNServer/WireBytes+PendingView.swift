import JSONRPC
import UNModel

extension WireBytes {
  /// `pending` written from a view of the stored request: the common shape (only the
  /// common content fields, a time-interval trigger) straight from the stored bytes,
  /// anything else through the request value.  The same bytes either way (tested).
  static func pending(_ v: PendingView, _ o: inout [UInt8]) {
    guard v.hasOnlyCommonContent, case .timeInterval(let t)? = v.trigger else {
      return RequestShape.encode(v.entry, &o)
    }
    key(#"{"identifier":"#, &o)
    text(v, .identifier, &o)
    key(#","content":{"title":"#, &o)
    text(v, .title, &o)
    key(#","subtitle":"","body":"#, &o)
    text(v, .body, &o)
    key(#","userInfo":"#, &o)
    v.withUTF8(.userInfo) { o.append(contentsOf: $0) }
    key(#","categoryIdentifier":"#, &o)
    text(v, .categoryIdentifier, &o)
    key(#","threadIdentifier":"#, &o)
    text(v, .threadIdentifier, &o)
    o.append(contentsOf: defaultContentTail)
    key(#","trigger":{"type":"timeInterval","timeInterval":"#, &o)
    if t.seconds == t.seconds.rounded(.towardZero), t.seconds < 1e9 {
      integer(Int(t.seconds), &o)
    } else {
      number(.double(t.seconds), &o)
    }
    key(t.repeats ? #","repeats":true}"# : #","repeats":false}"#, &o)
    key(#","nextTriggerDate":"#, &o)
    date(v.nextDate, &o)
    o.append(UInt8(ascii: "}"))
  }

  /// The content members after `threadIdentifier` at their defaults, and the closing
  /// brace: what a request with only the common fields has there (`ContentShape`).
  static let defaultContentTail: [UInt8] = {
    var o: [UInt8] = []
    var first = false
    let after = ContentShape.fields.firstIndex { $0.key == "threadIdentifier" }! + 1
    ContentShape.members(Content(), from: after, first: &first, &o)
    o.append(UInt8(ascii: "}"))
    return o
  }()

  private static func text(_ v: PendingView, _ field: PendingView.Text, _ o: inout [UInt8]) {
    v.withUTF8(field) { JSONWriter.appendString(utf8: $0, to: &o) }
  }
}
