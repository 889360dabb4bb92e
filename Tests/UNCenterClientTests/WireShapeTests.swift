import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// The values' wire shapes, compared with what the daemon reads and writes
/// (proto-docs/README.md, "Shapes").
final class WireShapeTests: XCTestCase {
  static func seedCategory() -> UNNotificationCategory {
    let replyAction = UNTextInputNotificationAction(
      identifier: "reply", title: "Odpowiedz", options: [.foreground], textInputButtonTitle: "Wyślij",
      textInputPlaceholder: "Wpisz wiadomość...")
    let deleteAction = UNNotificationAction(identifier: "delete", title: "Usuń", options: [.destructive])
    return UNNotificationCategory(
      identifier: "message", actions: [replyAction, deleteAction], intentIdentifiers: [],
      options: [.customDismissAction])
  }

  func testSeedCategoryEncodesAsTheDaemonsCategory() {
    XCTAssertEqual(
      Self.seedCategory().wireValue,
      json(
        #"{"identifier":"message","actions":[{"identifier":"reply","title":"Odpowiedz","options":["foreground"],"#
          + #""textInput":{"buttonTitle":"Wyślij","placeholder":"Wpisz wiadomość..."}},"#
          + #"{"identifier":"delete","title":"Usuń","options":["destructive"]}],"intentIdentifiers":[],"#
          + #""options":["customDismissAction"]}"#))
  }

  func testCategoryWithPlaceholderSummaryFormatAndAllOptions() {
    let c = UNNotificationCategory(
      identifier: "c", actions: [], intentIdentifiers: ["INSendMessageIntent"], hiddenPreviewsBodyPlaceholder: "%u new",
      categorySummaryFormat: "%u more from %@",
      options: [
        .allowAnnouncement, .customDismissAction, .allowInCarPlay, .hiddenPreviewsShowTitle,
        .hiddenPreviewsShowSubtitle,
      ])
    let expected = json(
      #"{"identifier":"c","actions":[],"intentIdentifiers":["INSendMessageIntent"],"#
        + #""hiddenPreviewsBodyPlaceholder":"%u new","categorySummaryFormat":"%u more from %@","#
        + #""options":["customDismissAction","allowInCarPlay","hiddenPreviewsShowTitle","#
        + #""hiddenPreviewsShowSubtitle","allowAnnouncement"]}"#)
    XCTAssertEqual(c.wireValue, expected)
    XCTAssertEqual(try UNNotificationCategory(wireValue: expected), c)
  }

  func testActionDecodingKeepsTextInput() throws {
    let category = Self.seedCategory()
    let decoded = try UNNotificationCategory(wireValue: category.wireValue)
    XCTAssertEqual(decoded, category)
    let reply = try XCTUnwrap(decoded.actions[0] as? UNTextInputNotificationAction)
    XCTAssertEqual(reply.textInputButtonTitle, "Wyślij")
    XCTAssertEqual(reply.textInputPlaceholder, "Wpisz wiadomość...")
    XCTAssertFalse(decoded.actions[1] is UNTextInputNotificationAction)
    XCTAssertEqual(decoded.actions[1].options, [.destructive])
  }

  func testDefaultContentMatchesTheDaemonsDefaults() {
    XCTAssertEqual(
      UNNotificationContent().wireValue,
      json(
        #"{"title":"","subtitle":"","body":"","userInfo":{},"categoryIdentifier":"","threadIdentifier":"","#
          + #""summaryArgument":"","summaryArgumentCount":1,"interruptionLevel":"active","relevanceScore":0,"#
          + #""launchImageName":""}"#))
  }

  static func fullContent() -> UNMutableNotificationContent {
    let content = UNMutableNotificationContent()
    content.title = "Nowa wiadomość"
    content.subtitle = "Anna"
    content.body = "Cześć! Jak się masz?"
    content.badge = 5 as NSNumber
    content.sound = .default
    content.userInfo = ["chatId": "chat_123", "unread": 3, "score": 2.5, "muted": false, "tags": ["a", "b"]]
    content.categoryIdentifier = "message"
    content.threadIdentifier = "chat_123"
    content.summaryArgument = "Anna"
    content.summaryArgumentCount = 2
    content.targetContentIdentifier = "chat_123"
    content.interruptionLevel = .timeSensitive
    content.relevanceScore = 0.5
    return content
  }

  func testMutableContentEncodesEveryField() {
    XCTAssertEqual(
      Self.fullContent().wireValue,
      json(
        #"{"title":"Nowa wiadomość","subtitle":"Anna","body":"Cześć! Jak się masz?","badge":5,"sound":"default","#
          + #""userInfo":{"chatId":"chat_123","muted":false,"score":2.5,"tags":["a","b"],"unread":3},"#
          + #""categoryIdentifier":"message","threadIdentifier":"chat_123","summaryArgument":"Anna","#
          + #""summaryArgumentCount":2,"targetContentIdentifier":"chat_123","interruptionLevel":"timeSensitive","#
          + #""relevanceScore":0.5,"launchImageName":""}"#))
  }

  func testNamedSoundAndContentDecoding() {
    let c = UNMutableNotificationContent()
    c.sound = UNNotificationSound(named: UNNotificationSoundName("ping.caf"))
    XCTAssertEqual(c.wireValue["sound"], .string("ping.caf"))
    let full = Self.fullContent()
    let decoded = UNNotificationContent(wireValue: full.wireValue)
    XCTAssertEqual(decoded, full)
    XCTAssertEqual(decoded.userInfo["unread"] as? Int, 3)
    XCTAssertEqual(decoded.userInfo["score"] as? Double, 2.5)
    XCTAssertEqual(decoded.userInfo["tags"] as? [String], ["a", "b"])
  }

  func testTimeIntervalTrigger() {
    XCTAssertEqual(
      UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false).wireValue,
      json(#"{"type":"timeInterval","timeInterval":5,"repeats":false}"#))
    XCTAssertEqual(
      UNTimeIntervalNotificationTrigger(timeInterval: 90.5, repeats: true).wireValue,
      json(#"{"type":"timeInterval","timeInterval":90.5,"repeats":true}"#))
  }

  func testCalendarTrigger() throws {
    var components = DateComponents()
    components.hour = 8
    components.minute = 30
    components.weekday = 2
    components.timeZone = TimeZone(identifier: "Europe/Warsaw")
    let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
    let expected = json(
      #"{"type":"calendar","dateMatching":{"hour":8,"minute":30,"weekday":2},"timeZone":"Europe/Warsaw","repeats":true}"#
    )
    XCTAssertEqual(trigger.wireValue, expected)
    let request = try UNNotificationRequest(
      wireValue: .object(["identifier": .string("c"), "content": .object([]), "trigger": expected]))
    let decoded = try XCTUnwrap(request.trigger as? UNCalendarNotificationTrigger)
    XCTAssertEqual(decoded, trigger)
    XCTAssertEqual(decoded.dateComponents.hour, 8)
    XCTAssertTrue(decoded.repeats)

    let oneShot = UNCalendarNotificationTrigger(
      dateMatching: DateComponents(year: 2026, month: 12, day: 24, hour: 18), repeats: false)
    XCTAssertEqual(
      oneShot.wireValue,
      json(#"{"type":"calendar","dateMatching":{"year":2026,"month":12,"day":24,"hour":18},"repeats":false}"#))
  }

  func testRequestShape() {
    let request = UNNotificationRequest(
      identifier: "message-1", content: UNMutableNotificationContent(), trigger: nil)
    XCTAssertEqual(request.wireValue["identifier"], .string("message-1"))
    XCTAssertEqual(request.wireValue["trigger"], .null)
    XCTAssertEqual(request.wireValue["content"], UNNotificationContent().wireValue)
  }

  static let notificationText =
    #"{"identifier":"message-1","date":"2026-01-01T08:00:05.000Z","request":{"identifier":"message-1","#
    + #""content":{"title":"Nowa wiadomość","subtitle":"","body":"Anna: Cześć!","userInfo":{"chatId":"chat_123"},"#
    + #""categoryIdentifier":"message","threadIdentifier":"chat_123","summaryArgument":"","summaryArgumentCount":1,"#
    + #""interruptionLevel":"active","relevanceScore":0,"launchImageName":""},"#
    + #""trigger":{"type":"timeInterval","timeInterval":5,"repeats":false}},"#
    + #""actions":[{"identifier":"reply","title":"Odpowiedz","options":["foreground"],"#
    + #""textInput":{"buttonTitle":"Wyślij","placeholder":"Wpisz wiadomość..."}}]}"#

  func testNotificationDecoding() throws {
    let n = try UNNotification(wireValue: json(Self.notificationText))
    XCTAssertEqual(n.date, Date(timeIntervalSince1970: 1_767_254_405))
    XCTAssertEqual(n.request.identifier, "message-1")
    XCTAssertEqual(n.request.content.body, "Anna: Cześć!")
    XCTAssertEqual(n.request.content.userInfo["chatId"] as? String, "chat_123")
    let trigger = try XCTUnwrap(n.request.trigger as? UNTimeIntervalNotificationTrigger)
    XCTAssertEqual(trigger.timeInterval, 5)
    XCTAssertFalse(trigger.repeats)
    XCTAssertEqual(n.actions.map(\.identifier), ["reply"])
  }

  func testResponseDecoding() throws {
    let text =
      #"{"responseId":"resp-1","actionIdentifier":"reply","userText":"Dzięki","notification":"#
      + Self.notificationText + "}"
    let r = try XCTUnwrap(try UNNotificationResponse.from(wireValue: json(text)) as? UNTextInputNotificationResponse)
    XCTAssertEqual(r.responseId, "resp-1")
    XCTAssertEqual(r.actionIdentifier, "reply")
    XCTAssertEqual(r.userText, "Dzięki")
    XCTAssertEqual(r.notification.request.content.categoryIdentifier, "message")
    let tap = try UNNotificationResponse.from(
      wireValue: json(
        #"{"responseId":"resp-2","actionIdentifier":"com.apple.UNNotificationDefaultActionIdentifier","notification":"#
          + Self.notificationText + "}"))
    XCTAssertEqual(tap.actionIdentifier, UNNotificationDefaultActionIdentifier)
    XCTAssertFalse(tap is UNTextInputNotificationResponse)
    XCTAssertThrowsError(try UNNotificationResponse.from(wireValue: json(#"{"responseId":"x"}"#)))
  }

  func testSettingsDecoding() {
    let s = UNNotificationSettings(
      wireValue: json(
        #"{"authorizationStatus":"provisional","soundSetting":"disabled","badgeSetting":"disabled","#
          + #""alertSetting":"enabled","alertStyle":"none","showPreviewsSetting":"always","#
          + #""providesAppNotificationSettings":true}"#))
    XCTAssertEqual(s.authorizationStatus, .provisional)
    XCTAssertEqual(s.alertSetting, .enabled)
    XCTAssertEqual(s.soundSetting, .disabled)
    XCTAssertEqual(s.carPlaySetting, .notSupported)
    XCTAssertEqual(s.alertStyle, UNAlertStyle.none)
    XCTAssertTrue(s.providesAppNotificationSettings)
  }

  func testOptionSetsUseApplesNames() {
    let request = UNNotificationRequest(identifier: "x", content: UNNotificationContent(), trigger: nil)
    XCTAssertEqual(request, request)
    XCTAssertEqual(UNNotificationActionOptions([.foreground, .authenticationRequired]).rawValue, 0b101)
    XCTAssertEqual(UNNotificationDismissActionIdentifier, "com.apple.UNNotificationDismissActionIdentifier")
  }
}
