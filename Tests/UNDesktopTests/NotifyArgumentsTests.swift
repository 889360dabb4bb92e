import TestSupport
import UNDesktop
import UNModel
import XCTest

/// The `Notify` arguments of proto-docs/README.md, "Desktop: org.freedesktop.Notifications",
/// rule by rule, without a bus.
final class NotifyArgumentsTests: XCTestCase {
  func notification(
    _ id: String = "msg-1", title: String = "Nowa wiadomość", subtitle: String = "", body: String = "Anna: Cześć!",
    category: Category? = messageCategory, sound: Sound? = .default, level: InterruptionLevel = .active
  ) -> DeliveredNotification {
    var content = Content()
    content.title = title
    content.subtitle = subtitle
    content.body = body
    content.categoryIdentifier = category?.identifier ?? ""
    content.sound = sound
    content.interruptionLevel = level
    return DeliveredNotification(
      date: Instant(milliseconds: 0), request: NotificationRequest(identifier: id, content: content, trigger: nil),
      category: category, sequence: 1, late: false)
  }

  let full: Set<String> = ["actions", "body", "body-markup", "inline-reply"]

  func testThePolishMessageOnAFullServer() {
    let a = NotifyArguments(app: "com.example.chat", notification: notification(), capabilities: full, replacesId: 0)
    XCTAssertEqual(a.appName, "com.example.chat")
    XCTAssertEqual(a.replacesId, 0)
    XCTAssertEqual(a.appIcon, "")
    XCTAssertEqual(a.summary, "Nowa wiadomość")
    XCTAssertEqual(a.body, "Anna: Cześć!")
    XCTAssertEqual(a.actions, ["default", "Open", "reply", "Odpowiedz", "delete", "Usuń"])
    XCTAssertEqual(a.hints.map(\.0), ["urgency", "x-uncenter-app", "x-uncenter-identifier"])
    XCTAssertEqual(a.hints.map(\.1), [.byte(1), .string("com.example.chat"), .string("msg-1")])
    XCTAssertEqual(a.expireTimeout, -1)
  }

  func testReplacementCarriesTheServerId() {
    let a = NotifyArguments(app: "a", notification: notification(), capabilities: full, replacesId: 17)
    XCTAssertEqual(a.replacesId, 17)
  }

  func testSummaryFallsBackToTheAppAndSubtitleJoinsTheBody() {
    let a = NotifyArguments(
      app: "com.example.chat", notification: notification(title: "", subtitle: "Anna", body: "Cześć!"),
      capabilities: [], replacesId: 0)
    XCTAssertEqual(a.summary, "com.example.chat")
    XCTAssertEqual(a.body, "Anna\nCześć!")
  }

  func testMarkupIsEscapedOnlyWhenTheServerParsesIt() {
    let n = notification(subtitle: "<b>R&D</b>", body: "1 < 2 > 0 & \"quotes\" 'stay'")
    let escaped = NotifyArguments(app: "a", notification: n, capabilities: ["body-markup"], replacesId: 0)
    XCTAssertEqual(escaped.body, "&lt;b&gt;R&amp;D&lt;/b&gt;\n1 &lt; 2 &gt; 0 &amp; \"quotes\" 'stay'")
    let plain = NotifyArguments(app: "a", notification: n, capabilities: ["body"], replacesId: 0)
    XCTAssertEqual(plain.body, "<b>R&D</b>\n1 < 2 > 0 & \"quotes\" 'stay'")
    // The summary is never markup (the specification says so).
    let title = NotifyArguments(app: "a", notification: notification(title: "A & B"), capabilities: full, replacesId: 0)
    XCTAssertEqual(title.summary, "A & B")
  }

  func testUrgencyAndExpiry() {
    let levels: [(InterruptionLevel, UInt8, Int32)] = [
      (.passive, 0, -1), (.active, 1, -1), (.timeSensitive, 1, -1), (.critical, 2, 0),
    ]
    for (level, urgency, expire) in levels {
      let a = NotifyArguments(app: "a", notification: notification(level: level), capabilities: [], replacesId: 0)
      XCTAssertEqual(a.hints.first?.0, "urgency")
      XCTAssertEqual(a.hints.first?.1, .byte(urgency), "\(level)")
      XCTAssertEqual(a.expireTimeout, expire, "\(level)")
    }
  }

  func testSoundHints() {
    let named = NotifyArguments(
      app: "a", notification: notification(sound: .named("ding")), capabilities: [], replacesId: 0)
    XCTAssertEqual(named.hints[1].0, "sound-name")
    XCTAssertEqual(named.hints[1].1, .string("ding"))
    let silent = NotifyArguments(app: "a", notification: notification(sound: nil), capabilities: [], replacesId: 0)
    XCTAssertEqual(silent.hints[1].0, "suppress-sound")
    XCTAssertEqual(silent.hints[1].1, .boolean(true))
    let standard = NotifyArguments(
      app: "a", notification: notification(sound: .default), capabilities: [], replacesId: 0)
    XCTAssertFalse(standard.hints.contains { $0.0 == "sound-name" || $0.0 == "suppress-sound" })
  }

  func testActionsNeedTheCapabilityAndTextInputNeedsInlineReply() {
    let none = NotifyArguments(app: "a", notification: notification(), capabilities: ["body"], replacesId: 0)
    XCTAssertEqual(none.actions, [])
    let noReply = NotifyArguments(app: "a", notification: notification(), capabilities: ["actions"], replacesId: 0)
    XCTAssertEqual(noReply.actions, ["default", "Open", "delete", "Usuń"])
    let unknownCategory = NotifyArguments(
      app: "a", notification: notification(category: nil), capabilities: full, replacesId: 0)
    XCTAssertEqual(unknownCategory.actions, ["default", "Open"])
  }

  func testAlertText() {
    XCTAssertTrue(NotifyArguments.hasAlertText(notification().request.content))
    XCTAssertTrue(NotifyArguments.hasAlertText(notification(title: "", body: "x").request.content))
    XCTAssertTrue(NotifyArguments.hasAlertText(notification(title: "", subtitle: "s", body: "").request.content))
    XCTAssertFalse(NotifyArguments.hasAlertText(notification(title: "", body: "").request.content))
  }
}
