import JSONRPC
import UNModel
import UNProtocol

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
    // One visit of the record for all its text, and one capacity check for all of it.
    v.visitTexts { s in
      w.reserve(
        textRoom
          + ByteWriter.quotedRoom(
            s.identifier.count + s.title.count + s.body.count + s.categoryIdentifier.count
              + s.threadIdentifier.count) + s.userInfo.count)
      w.appendReserved(#"{"identifier":"#)
      w.appendStringReserved(utf8: s.identifier)
      w.appendReserved(#","content":{"title":"#)
      w.appendStringReserved(utf8: s.title)
      w.appendReserved(#","subtitle":"","body":"#)
      w.appendStringReserved(utf8: s.body)
      w.appendReserved(#","userInfo":"#)
      w.append(s.userInfo)
      w.appendReserved(#","categoryIdentifier":"#)
      w.appendStringReserved(utf8: s.categoryIdentifier)
      w.appendReserved(#","threadIdentifier":"#)
      w.appendStringReserved(utf8: s.threadIdentifier)
    }
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

  /// Room for the literal pieces around the text fields of a `pending` (the quotes of
  /// the five strings are in `quotedRoom`; `ByteWriter.quotedRoom` counts two per string,
  /// so four more for the other four strings).
  private static let textRoom =
    (#"{"identifier":"# + #","content":{"title":"# + #","subtitle":"","body":"# + #","userInfo":"#
    + #","categoryIdentifier":"# + #","threadIdentifier":"#).utf8.count + 4 * 2

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
}
