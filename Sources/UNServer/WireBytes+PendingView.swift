import JSONRPC
import UNModel

extension WireBytes {
  /// `pending` written from a view of the stored request: the common shape (only the
  /// common content fields, a time-interval trigger) straight from the stored bytes,
  /// anything else through the request value.  The same bytes either way (tested).
  /// Into a `ByteWriter`: a page of requests is written in hundreds of small pieces.
  static func pending(_ v: PendingView, _ w: inout ByteWriter) {
    guard v.hasOnlyCommonContent, case .timeInterval(let t)? = v.trigger else {
      var o: [UInt8] = []
      RequestShape.encode(v.entry, &o)
      return w.append(o)
    }
    w.append(#"{"identifier":"#)
    text(v, .identifier, &w)
    w.append(#","content":{"title":"#)
    text(v, .title, &w)
    w.append(#","subtitle":"","body":"#)
    text(v, .body, &w)
    w.append(#","userInfo":"#)
    v.withUTF8(.userInfo) { w.append($0) }
    w.append(#","categoryIdentifier":"#)
    text(v, .categoryIdentifier, &w)
    w.append(#","threadIdentifier":"#)
    text(v, .threadIdentifier, &w)
    w.append(defaultContentTail)
    w.append(#","trigger":{"type":"timeInterval","timeInterval":"#)
    // The model keeps the interval above zero (`TimeIntervalTrigger`).
    if t.seconds == t.seconds.rounded(.towardZero), t.seconds < 1e9 {
      withDigits(Int(t.seconds)) { w.append($0) }
    } else {
      var o: [UInt8] = []
      number(.double(t.seconds), &o)
      w.append(o)
    }
    w.append(t.repeats ? #","repeats":true}"# : #","repeats":false}"#)
    w.append(#","nextTriggerDate":""#)
    v.nextDate.withRFC3339 { w.append($0) }
    w.append(#""}"#)
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

  private static func text(_ v: PendingView, _ field: PendingView.Text, _ w: inout ByteWriter) {
    v.withUTF8(field) { w.appendString(utf8: $0) }
  }
}
