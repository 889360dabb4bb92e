import JSONRPC
import UNModel

/// The request shape (UNNotificationRequest), `{identifier, content, trigger,
/// nextTriggerDate?, upcomingTriggerDates?}`: written as bytes from the content and
/// trigger shapes, and its OpenRPC properties.  (Reading it is `scheduleLocal`'s params
/// and `StateCodec.decodeRequest`: the same fields through `ContentShape` and
/// `TriggerShape`.)
public enum RequestShape {
  public static func encode(
    _ r: NotificationRequest, nextTriggerDate: Instant? = nil, upcoming: [Instant]? = nil, _ o: inout [UInt8]
  ) {
    WireBytes.member(#"{"identifier":"#, r.identifier, &o)
    WireBytes.key(#","content":"#, &o)
    ContentShape.encode(r.content, &o)
    WireBytes.key(#","trigger":"#, &o)
    TriggerShape.encode(r.trigger, &o)
    if let next = nextTriggerDate {
      WireBytes.key(#","nextTriggerDate":"#, &o)
      WireBytes.date(next, &o)
    }
    if let upcoming {
      WireBytes.key(#","upcomingTriggerDates":"#, &o)
      WireBytes.array(upcoming, &o) { WireBytes.date($0, &$1) }
    }
    o.append(UInt8(ascii: "}"))
  }

  /// A pending request: the request with its next trigger date.
  public static func encode(_ p: PendingRequest, upcoming: [Instant]? = nil, _ o: inout [UInt8]) {
    encode(p.request, nextTriggerDate: p.nextDate, upcoming: upcoming, &o)
  }

  public static let schema = DescribedSchema([
    "identifier": .of(
      "string", ["minLength": .int(1)],
      "A non-empty identifier, compared as its exact UTF-8 (case and Unicode spelling count); U+0000 is refused."),
    "content": .ref("Content"),
    "trigger": .ref("Trigger"),
    "nextTriggerDate": .ref("Date", "Pending requests only: the next fire date."),
    "upcomingTriggerDates": .array(
      .ref("Date"),
      "listPending with upcoming = N only: the next N fire dates (fewer when the trigger stops matching; at most one for a non-repeating trigger)."
    ),
  ])
}
