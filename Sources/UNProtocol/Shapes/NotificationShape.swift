import JSONRPC
import UNModel

/// The delivered-notification shapes: Notification (UNNotification), Response
/// (UNNotificationResponse) and Group (a thread as Notification Center stacks it),
/// written as bytes, and their OpenRPC properties.
public enum NotificationShape {
  /// A delivered notification with the actions as shown (phone unless given).
  public static func encode(_ n: DeliveredNotification, actions: [Action]? = nil, _ o: inout [UInt8]) {
    WireBytes.member(#"{"identifier":"#, n.identifier, &o)
    WireBytes.key(#","date":"#, &o)
    WireBytes.date(n.date, &o)
    WireBytes.key(#","request":"#, &o)
    RequestShape.encode(n.request, &o)
    WireBytes.key(#","actions":"#, &o)
    ActionShape.encode(actions ?? n.actions, &o)
    if n.late { WireBytes.key(#","late":true"#, &o) }
    o.append(UInt8(ascii: "}"))
  }

  public static func encode(_ r: NotificationResponse, _ o: inout [UInt8]) {
    WireBytes.member(#"{"responseId":"#, r.responseId, &o)
    WireBytes.member(#","actionIdentifier":"#, r.actionIdentifier, &o)
    if let t = r.userText {
      WireBytes.member(#","userText":"#, t, &o)
    }
    WireBytes.key(#","notification":"#, &o)
    encode(r.notification, &o)
    o.append(UInt8(ascii: "}"))
  }

  public static func encode(_ g: DeliveredGroup, _ o: inout [UInt8]) {
    WireBytes.member(#"{"threadIdentifier":"#, g.threadIdentifier, &o)
    WireBytes.key(#","count":"#, &o)
    WireBytes.integer(g.count, &o)
    WireBytes.member(#","summary":"#, g.summary, &o)
    WireBytes.key(#","notifications":"#, &o)
    WireBytes.array(g.notifications, &o) { encode($0, &$1) }
    o.append(UInt8(ascii: "}"))
  }

  public static let schema = DescribedSchema([
    "identifier": .of(
      "string", ["minLength": .int(1)],
      "A non-empty identifier, compared as its exact UTF-8 (case and Unicode spelling count); U+0000 is refused."),
    "date": .ref("Date", "The trigger date (the scheduled fire date)."),
    "request": .ref("Request"),
    "actions": .array(
      .ref("Action"),
      "The actions shown with it: the category's at delivery time, filtered by the surface (phone everywhere except in present)."
    ),
    "late": PropertySchema(
      value: .object([
        JSONMember("const", .bool(true)),
        JSONMember("description", .string("Present only when it fired late (real-clock catch-up).")),
      ])),
  ])

  public static let responseSchema = DescribedSchema([
    "responseId": .of("string", "Unique per daemon run: resp-1, resp-2, ..."),
    "actionIdentifier": .of(
      "string",
      "A category action, com.apple.UNNotificationDefaultActionIdentifier or com.apple.UNNotificationDismissActionIdentifier."
    ),
    "userText": .of("string", "Text-input actions only."),
    "notification": .ref("Notification"),
  ])

  public static let groupSchema = DescribedSchema([
    "threadIdentifier": .of("string", #""" for the app's own group."#),
    "count": .of("integer", ["minimum": .int(1)]),
    "summary": .of(
      "string", #""k more notifications from A and B"; "" when the group has a single notification."#),
    "notifications": .array(.ref("Notification"), "Newest first; the first is the one shown on top."),
  ])
}
