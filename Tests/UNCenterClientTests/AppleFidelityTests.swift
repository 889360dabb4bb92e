import Foundation
import JSONRPC
import TestSupport
import XCTest

@testable import UNCenterClient

/// Each difference from Apple's API that the client used to have, checked against the
/// wire shapes (and, for the lazy center, against no daemon at all).
final class AppleFidelityTests: XCTestCase {
  func testUserInfoIsFoundationShapedBothWays() throws {
    let content = UNMutableNotificationContent()
    content.userInfo = [
      "aps": ["alert": "Hi", "badge": 2] as [String: Any], "n": NSNumber(value: 3), "flag": NSNumber(value: true),
      "list": [1, "two"] as [Any], "none": NSNull(), AnyHashable("x"): 1.5,
    ]
    XCTAssertEqual(
      content.wireValue["userInfo"],
      json(#"{"aps":{"alert":"Hi","badge":2},"flag":true,"list":[1,"two"],"n":3,"none":null,"x":1.5}"#))
    let back = UNNotificationContent(wireValue: content.wireValue).userInfo
    XCTAssertEqual((back["aps"] as? [String: Any])?["badge"] as? Int, 2)
    XCTAssertEqual(back["flag"] as? Bool, true)
    XCTAssertTrue(back["none"] is NSNull)
  }

  func testBadgeIsAnNSNumber() {
    let content = UNMutableNotificationContent()
    content.badge = NSNumber(value: 4)
    XCTAssertEqual(content.wireValue["badge"], .int(4))
    content.badge = nil
    XCTAssertNil(content.wireValue["badge"])
    XCTAssertEqual(UNNotificationContent(wireValue: json(#"{"badge":7}"#)).badge, 7)
  }

  func testCopyAndMutableCopyAsApples() throws {
    let content = UNMutableNotificationContent()
    content.title = "A"
    let frozen = try XCTUnwrap(content.copy() as? UNNotificationContent)
    XCTAssertFalse(frozen is UNMutableNotificationContent)
    content.title = "B"
    XCTAssertEqual(frozen.title, "A")
    let editable = try XCTUnwrap(frozen.mutableCopy() as? UNMutableNotificationContent)
    editable.title = "C"
    XCTAssertEqual(frozen.title, "A")
    // A request copies its content, as on iOS.
    let request = UNNotificationRequest(identifier: "r", content: editable, trigger: nil)
    editable.title = "D"
    XCTAssertEqual(request.content.title, "C")
  }

  func testTextInputActionAndResponseAreRealSubclasses() throws {
    let plain: UNNotificationAction = UNNotificationAction(identifier: "ok", title: "OK", options: [])
    XCTAssertNil(plain as? UNTextInputNotificationAction)
    let reply: UNNotificationAction = UNTextInputNotificationAction(
      identifier: "reply", title: "Reply", options: [], textInputButtonTitle: "Send", textInputPlaceholder: "...")
    XCTAssertEqual((reply as? UNTextInputNotificationAction)?.textInputButtonTitle, "Send")
    let tap = try UNNotificationResponse.from(
      wireValue: json(
        #"{"responseId":"r","actionIdentifier":"ok","notification":"# + WireShapeTests.notificationText + "}"))
    XCTAssertNil(tap as? UNTextInputNotificationResponse)
  }

  func testCalendarTriggerSendsTheCalendarsTimeZone() {
    var components = DateComponents()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Asia/Tokyo")!
    components.calendar = calendar
    components.hour = 9
    let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: true)
    XCTAssertEqual(trigger.wireValue["timeZone"], .string("Asia/Tokyo"))
    components.timeZone = TimeZone(identifier: "Europe/Warsaw")
    XCTAssertEqual(
      UNCalendarNotificationTrigger(dateMatching: components, repeats: true).wireValue["timeZone"],
      .string("Europe/Warsaw"), "the components' own zone wins")
    let next = trigger.nextTriggerDate()
    XCTAssertNotNil(next)
    if let next { XCTAssertEqual(calendar.component(.hour, from: next), 9) }
    let interval = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false).nextTriggerDate()
    XCTAssertEqual(interval?.timeIntervalSinceNow ?? 0, 60, accuracy: 5)
  }

  func testSoundFactoriesUseTheAgreedShapes() {
    XCTAssertEqual(UNNotificationSound.default.wireValue, .string("default"))
    XCTAssertEqual(UNNotificationSound(named: UNNotificationSoundName("ping.caf")).wireValue, .string("ping.caf"))
    XCTAssertEqual(UNNotificationSound.defaultCritical.wireValue, json(#"{"critical":true}"#))
    XCTAssertEqual(
      UNNotificationSound.criticalSoundNamed(UNNotificationSoundName("alarm.caf"), withAudioVolume: 0.5).wireValue,
      json(#"{"name":"alarm.caf","critical":true,"volume":0.5}"#))
    XCTAssertEqual(
      UNNotificationSound.defaultCriticalSound(withAudioVolume: 2).wireValue, json(#"{"critical":true,"volume":1}"#))
    let decoded = UNNotificationSound.from(wireValue: json(#"{"name":"alarm.caf","critical":true,"volume":0.5}"#))
    XCTAssertEqual(decoded?.isCritical, true)
    XCTAssertEqual(decoded?.volume, 0.5)
    XCTAssertNil(UNNotificationSound.from(wireValue: .null))
  }

  func testAttachmentChecksTheFileWithApplesErrorCodes() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unc-att-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    func code(_ body: () throws -> Void) -> UNError.Code? {
      do {
        try body()
        return nil
      } catch {
        return (error as? UNError)?.code
      }
    }
    XCTAssertEqual(
      code { _ = try UNNotificationAttachment(identifier: "a", url: URL(string: "https://example.com/a.png")!) },
      .attachmentInvalidURL)
    XCTAssertEqual(
      code { _ = try UNNotificationAttachment(identifier: "a", url: dir.appendingPathComponent("missing.png")) },
      .attachmentInvalidURL)
    let odd = dir.appendingPathComponent("notes.xyz")
    try Data("x".utf8).write(to: odd)
    XCTAssertEqual(code { _ = try UNNotificationAttachment(identifier: "a", url: odd) }, .attachmentUnrecognizedType)
    let empty = dir.appendingPathComponent("empty.png")
    try Data().write(to: empty)
    XCTAssertEqual(code { _ = try UNNotificationAttachment(identifier: "a", url: empty) }, .attachmentInvalidFileSize)
    let image = dir.appendingPathComponent("photo.jpg")
    try Data([0xFF, 0xD8, 0xFF]).write(to: image)
    let attachment = try UNNotificationAttachment(identifier: "photo", url: image, options: nil)
    XCTAssertEqual(attachment.type, "public.jpeg")
    let hinted = try UNNotificationAttachment(
      identifier: "odd", url: odd, options: [UNNotificationAttachmentOptionsTypeHintKey: "public.png"])
    let content = UNMutableNotificationContent()
    content.attachments = [attachment, hinted]
    XCTAssertEqual(
      content.wireValue["attachments"],
      .array([
        .object(["identifier": .string("photo"), "url": .string(image.standardizedFileURL.absoluteString)]),
        .object([
          "identifier": .string("odd"), "url": .string(odd.standardizedFileURL.absoluteString),
          "type": .string("public.png"),
        ]),
      ]))
    XCTAssertNil(UNMutableNotificationContent().wireValue["attachments"], "omitted when empty")
  }

  func testAlertPresentationOptionIsSentAsBannerAndList() {
    XCTAssertEqual(UNNotificationPresentationOptions.alert.presentationWireNames, ["banner", "list"])
    XCTAssertEqual(UNNotificationPresentationOptions([.sound]).presentationWireNames, ["sound"])
  }

  /// A lazy center with no daemon reports the failure in the completion handlers and
  /// the throwing forms, and returns empty answers from the getters: it never traps.
  func testLazyCenterReportsConnectionErrorsWithoutTrapping() async {
    let center = UNUserNotificationCenter(
      appId: "com.example.none", socketPath: "/tmp/unc-no-daemon-\(getpid()).sock", foreground: true,
      presentation: [.banner], fallback: [])
    let failed = expectation(description: "add's completion handler")
    center.add(UNNotificationRequest(identifier: "x", content: UNNotificationContent(), trigger: nil)) { error in
      XCTAssertTrue("\(String(describing: error))".contains("unc-no-daemon"))
      failed.fulfill()
    }
    await fulfillment(of: [failed], timeout: 10)
    let pending = await center.pendingNotificationRequests()
    XCTAssertEqual(pending, [])
    do {
      try await center.requestAuthorization(options: [.alert])
      XCTFail("authorized without a daemon")
    } catch {
      XCTAssertTrue(error is UNCenterError)
    }
    center.removeAllPendingNotificationRequests()  // no daemon: nothing to report, nothing breaks
  }

  func testDefaultAppIdComesFromTheEnvironmentThenTheProcess() {
    XCTAssertEqual(UNUserNotificationCenter.defaultAppId(["UNCENTER_APP": "com.example.x"]), "com.example.x")
    XCTAssertFalse(UNUserNotificationCenter.defaultAppId([:]).isEmpty)
  }
}
