import Foundation
import JSONRPC
import TestSupport
import UserNotifications
import XCTest

/// Apple's sample code (the other files of this target, written as the articles write
/// them: plain classes, completion handlers, `current()` with no `connect`) run against
/// a real daemon, with a `user` connection acting as the person holding the phone.
///
/// XCTest on Linux runs test methods on the main thread but cannot call `@MainActor`
/// ones, so each test enters the main actor with `assumeIsolated`, as an app's code on
/// the main thread is.
final class AppleSampleCodeTests: XCTestCase {
  override func setUpWithError() throws { _ = try SharedDaemon.socket() }
  override func tearDown() { SharedDaemon.leave() }

  func testPermissionSampleIsGrantedAndSettingsSayAlert() throws {
    try MainActor.assumeIsolated { try Self.checkThatPermissionSampleIsGrantedAndSettingsSayAlert() }
  }

  @MainActor private static func checkThatPermissionSampleIsGrantedAndSettingsSayAlert() throws {
    var answer: (Bool, (any Error)?)?
    askPermission { granted, error in DispatchQueue.main.async { answer = (granted, error) } }
    XCTAssertTrue(runMainLoop { answer != nil }, "requestAuthorization's completion handler never ran")
    XCTAssertEqual(answer?.0, true)
    XCTAssertNil(answer?.1)
    var setting: String?
    checkSettings { s in DispatchQueue.main.async { setting = s } }
    XCTAssertTrue(runMainLoop { setting != nil })
    XCTAssertEqual(setting, "alert")
  }

  func testSchedulingSampleSendsAWeeklyTriggerInTheCalendarsZone() throws {
    try MainActor.assumeIsolated { try Self.checkThatSchedulingSampleSendsAWeeklyTriggerInTheCalendarsZone() }
  }

  @MainActor private static func checkThatSchedulingSampleSendsAWeeklyTriggerInTheCalendarsZone() throws {
    var done = false
    var failure: (any Error)?
    scheduleWeeklyStaffMeeting(identifier: "weekly-staff") { error in
      DispatchQueue.main.async {
        failure = error
        done = true
      }
    }
    XCTAssertTrue(runMainLoop { done }, "add's completion handler never ran")
    XCTAssertNil(failure)
    let user = try SharedDaemon.user()
    let pending = try user.ok("listPending", .object(["app": .string(SharedDaemon.app)]))
    let request = try XCTUnwrap(pending["requests"]?.arrayValue?.first { $0["identifier"] == .string("weekly-staff") })
    XCTAssertEqual(request["trigger"]?["dateMatching"], .object(["hour": .int(14), "weekday": .int(3)]))
    XCTAssertEqual(request["trigger"]?["timeZone"], .string(Calendar.current.timeZone.identifier))
    XCTAssertEqual(request["trigger"]?["repeats"], .bool(true))

    var read: [UNNotificationRequest]?
    UNUserNotificationCenter.current().getPendingNotificationRequests { requests in
      DispatchQueue.main.async { read = requests }
    }
    XCTAssertTrue(runMainLoop { read != nil })
    let mine = try XCTUnwrap(read?.first { $0.identifier == "weekly-staff" })
    let trigger = try XCTUnwrap(mine.trigger as? UNCalendarNotificationTrigger)
    XCTAssertEqual(trigger.dateComponents.weekday, 3)
    XCTAssertNotNil(trigger.nextTriggerDate())
    UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: ["weekly-staff"])
  }

  /// The actionable-notification sample's delegate, in completion-handler form: the
  /// user's answer reaches `didReceive` exactly once, with the action chosen.
  func testCompletionHandlerDidReceiveIsCalledOnceWithTheAction() throws {
    try MainActor.assumeIsolated { try Self.checkThatCompletionHandlerDidReceiveIsCalledOnceWithTheAction() }
  }

  @MainActor private static func checkThatCompletionHandlerDidReceiveIsCalledOnceWithTheAction() throws {
    let delegate = AppNotificationDelegate()
    UNUserNotificationCenter.current().delegate = delegate
    defer { UNUserNotificationCenter.current().delegate = nil }
    registerMeetingInvitationCategory()
    let user = try SharedDaemon.user()
    // In the background, as when the invitation arrives while the app is not in use.
    _ = try user.ok("setForeground", .object(["app": .string(SharedDaemon.app), "foreground": .bool(false)]))
    defer {
      _ = try? user.call("setForeground", .object(["app": .string(SharedDaemon.app), "foreground": .bool(true)]))
    }

    var added = false
    let request = UNNotificationRequest(
      identifier: "invite-1", content: meetingInvitationContent(meetingID: "M-7", userID: "anna"), trigger: nil)
    UNUserNotificationCenter.current().add(request) { error in
      XCTAssertNil(error)
      DispatchQueue.main.async { added = true }
    }
    XCTAssertTrue(runMainLoop { added })
    let r = try user.ok(
      "respond",
      .object([
        "app": .string(SharedDaemon.app), "identifier": .string("invite-1"),
        "actionIdentifier": .string("ACCEPT_ACTION"),
      ]))
    XCTAssertEqual(r["delivered"], .bool(true))
    XCTAssertTrue(runMainLoop { !delegate.receivedActions.isEmpty }, "didReceive was never called")
    runMainLoop(for: 0.5)
    XCTAssertEqual(delegate.receivedActions, ["ACCEPT_ACTION"], "called exactly once")
    XCTAssertEqual(sharedMeetingManager.accepted.last?.meetingID, "M-7")
    XCTAssertEqual(sharedMeetingManager.accepted.last?.user, "anna")
    // The completion handler completed the background action.
    XCTAssertTrue(runMainLoop { (try? user.ok("stats"))?["openResponses"]?.intValue == 0 })
  }

  /// The options given to `willPresent`'s completion handler decide: `.sound` alone
  /// neither shows nor lists the invitation; `[.banner, .list]` lists the other one.
  func testWillPresentCompletionHandlerDecidesThePresentation() throws {
    try MainActor.assumeIsolated { try Self.checkThatWillPresentCompletionHandlerDecidesThePresentation() }
  }

  @MainActor private static func checkThatWillPresentCompletionHandlerDecidesThePresentation() throws {
    let delegate = AppNotificationDelegate()
    UNUserNotificationCenter.current().delegate = delegate
    defer { UNUserNotificationCenter.current().delegate = nil }
    registerMeetingInvitationCategory()
    let user = try SharedDaemon.user()
    let other = UNMutableNotificationContent()
    other.title = "Lunch"
    other.body = "Pizza at noon"
    let center = UNUserNotificationCenter.current()
    center.add(
      UNNotificationRequest(
        identifier: "invite-2", content: meetingInvitationContent(meetingID: "M-8", userID: "anna"), trigger: nil))
    center.add(UNNotificationRequest(identifier: "lunch", content: other, trigger: nil))
    XCTAssertTrue(runMainLoop { delegate.presented.count == 2 }, "willPresent was not called for both")
    let presented = try user.ok(
      "waitFor",
      .object([
        "event": .object(["type": .string("presented"), "identifier": .string("lunch")]), "timeout": .int(10),
      ]))
    XCTAssertEqual(presented["event"]?["presentation"], .array([.string("banner"), .string("list")]))
    let invite = try user.ok(
      "waitFor",
      .object([
        "event": .object(["type": .string("presented"), "identifier": .string("invite-2")]), "timeout": .int(10),
      ]))
    XCTAssertEqual(invite["event"]?["presentation"], .array([.string("sound")]))
    let delivered = try user.ok("listDelivered", .object(["app": .string(SharedDaemon.app)]))
    let ids = delivered["notifications"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue } ?? []
    XCTAssertTrue(ids.contains("lunch"))
    XCTAssertFalse(ids.contains("invite-2"), "willPresent said .sound only: not listed")
    XCTAssertEqual(delegate.presented, ["invite-2", "lunch"])
  }

  /// The async forms, as the Swift importer makes them, with no `try` where Apple's
  /// getters do not throw and `requestAuthorization`'s result ignored.
  func testAsyncFormsReadAsOnIOS() async throws {
    let granted = await askPermissionAsync()
    XCTAssertTrue(granted)
    let center = UNUserNotificationCenter.current()
    let settings = await center.notificationSettings()
    XCTAssertEqual(settings.authorizationStatus, .authorized)
    let content = UNMutableNotificationContent()
    content.title = "Later"
    content.badge = 2
    try await center.add(
      UNNotificationRequest(
        identifier: "later", content: content,
        trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)))
    let pending = await center.pendingNotificationRequests()
    let later = try XCTUnwrap(pending.first { $0.identifier == "later" })
    XCTAssertEqual(later.content.badge, 2)
    XCTAssertEqual((later.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval, 3600)
    center.removeAllPendingNotificationRequests()
    let none = await center.pendingNotificationRequests()
    XCTAssertTrue(none.isEmpty)
    try await center.setBadgeCount(0)
  }
}
