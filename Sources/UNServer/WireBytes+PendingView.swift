import JSONRPC
import UNModel

extension WireBytes {
  /// `pending` written from a view of the stored request: the common shape (only the
  /// common content fields, a time-interval trigger) straight from the stored bytes,
  /// anything else through the request value.  The same bytes either way (tested).
  static func pending(_ v: PendingView, _ o: inout [UInt8]) {
    guard v.hasOnlyCommonContent, case .timeInterval(let t)? = v.trigger else { return pending(v.entry, &o) }
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
    key(
      #","summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"launchImageName":""}"#,
      &o)
    key(#","trigger":{"type":"timeInterval","timeInterval":"#, &o)
    if t.seconds == t.seconds.rounded(.towardZero), t.seconds < 1e9 { integer(Int(t.seconds), &o) } else { number(.double(t.seconds), &o) }
    key(t.repeats ? #","repeats":true}"# : #","repeats":false}"#, &o)
    key(#","nextTriggerDate":"#, &o)
    date(v.nextDate, &o)
    o.append(UInt8(ascii: "}"))
  }

  private static func text(_ v: PendingView, _ field: PendingView.Text, _ o: inout [UInt8]) {
    v.withUTF8(field) { JSONWriter.appendString(utf8: $0, to: &o) }
  }
}
