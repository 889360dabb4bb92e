import UNModel
import XCTest

final class AuthorizationTests: XCTestCase {
  private func features(_ s: NotificationSettings) -> [String: String] {
    Dictionary(uniqueKeysWithValues: s.features)
  }

  func testIosModeStartsNotDetermined() {
    let (center, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    XCTAssertEqual(center.app("a").authorization, .notDetermined)
    XCTAssertEqual(center.settings(app: "a").authorizationStatus, .notDetermined)
    let (implicit, _) = makeCenter()
    XCTAssertEqual(implicit.app("a").authorization, .authorized)
  }

  func testRequestGrantsByDefaultAndThenReturnsTheStoredDecision() {
    let (center, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    let first = center.requestAuthorization(app: "a", options: [.alert, .sound])
    XCTAssertTrue(first.granted)
    XCTAssertEqual(first.settings.authorizationStatus, .authorized)
    XCTAssertEqual(features(first.settings)["soundSetting"], "enabled")
    XCTAssertEqual(features(first.settings)["badgeSetting"], "disabled", "badge was not asked for")
    XCTAssertEqual(center.app("a").grantedOptions, [.alert, .sound])
    // The user's next answer no longer matters: the decision is stored.
    _ = center.setAuthorization(app: "a", status: nil, answer: false)
    let again = center.requestAuthorization(app: "a", options: [.alert, .sound, .badge])
    XCTAssertTrue(again.granted)
    XCTAssertEqual(again.settings.authorizationStatus, .authorized)
    XCTAssertEqual(center.app("a").grantedOptions, [.alert, .sound], "not asked again")
  }

  func testAnswerFalseMakesTheNextPromptDeny() {
    let (center, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    let settings = center.setAuthorization(app: "a", status: nil, answer: false)
    XCTAssertEqual(settings.authorizationStatus, .notDetermined)
    let denied = center.requestAuthorization(app: "a", options: [.alert])
    XCTAssertFalse(denied.granted)
    XCTAssertEqual(denied.settings.authorizationStatus, .denied)
    XCTAssertNil(center.app("a").nextAnswer, "the answer is used once")
    _ = center.setAuthorization(app: "a", status: nil, answer: true)
    let later = center.requestAuthorization(app: "a", options: [.alert])
    XCTAssertFalse(later.granted, "a denial is not asked again")
    XCTAssertEqual(later.settings.authorizationStatus, .denied)
  }

  func testProvisionalIsGrantedWithoutAskingAndDeliversQuietly() throws {
    let (center, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    _ = center.setAuthorization(app: "a", status: nil, answer: false)
    let r = center.requestAuthorization(app: "a", options: [.alert, .provisional])
    XCTAssertTrue(r.granted)
    XCTAssertEqual(r.settings.authorizationStatus, .provisional)
    XCTAssertEqual(center.app("a").nextAnswer, false, "the user was not asked")
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = center.takeEffects()
    let result = try center.schedule(app: "a", request("q", content(), interval(5)))
    XCTAssertTrue(result.scheduled)
    _ = try center.advanceClock(seconds: 5)
    let effects = center.takeEffects()
    XCTAssertTrue(callbacks(effects).isEmpty, "no present while provisional")
    let delivered = events(effects).filter { $0.kind == .delivered }
    XCTAssertEqual(delivered.count, 1)
    XCTAssertEqual(delivered.first?["quiet"], .bool(true))
    XCTAssertFalse(eventKinds(effects).contains(.presented))
    XCTAssertEqual(center.app("a").delivered["q"]?.date, startPlus(5))
  }

  func testProvisionalAppAskingForFullAuthorizationIsPrompted() {
    let (center, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    _ = center.requestAuthorization(app: "a", options: [.provisional])
    let full = center.requestAuthorization(app: "a", options: [.alert, .badge])
    XCTAssertTrue(full.granted)
    XCTAssertEqual(full.settings.authorizationStatus, .authorized)
  }

  func testDeniedAppSchedulesNothingWithAWarning() throws {
    let (center, _) = makeCenter()
    _ = center.setAuthorization(app: "a", status: .denied, answer: nil)
    let r = try center.schedule(app: "a", request("x", content(), interval(5)))
    XCTAssertFalse(r.scheduled)
    XCTAssertFalse(r.replaced)
    XCTAssertNil(r.nextTriggerDate)
    XCTAssertEqual(r.warnings, ["not scheduled: the app's authorization is 'denied'"])
    XCTAssertEqual(center.app("a").pending.count, 0)
    let now = try center.schedule(app: "a", request("y", content(), nil))
    XCTAssertFalse(now.scheduled)
    XCTAssertNil(center.app("a").delivered["y"])
  }

  func testNotDeterminedAppSchedulesNothingWithAWarning() throws {
    let (center, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    let r = try center.schedule(app: "a", request("x", content(), interval(5)))
    XCTAssertFalse(r.scheduled)
    XCTAssertEqual(r.warnings, ["not scheduled: the app's authorization is 'notDetermined'"])
  }

  func testTriggerFiringAfterTheUserTurnedNotificationsOffIsDropped() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = try center.schedule(app: "a", request("x", content(badge: 3), interval(5)))
    _ = try center.schedule(app: "a", request("r", content(), interval(60, repeats: true)))
    _ = center.setAuthorization(app: "a", status: .denied, answer: nil)
    _ = center.takeEffects()
    let fired = try center.advanceClock(seconds: 60).fired
    XCTAssertEqual(fired, ["x", "r"])
    let effects = center.takeEffects()
    XCTAssertTrue(callbacks(effects).isEmpty)
    let dropped = events(effects).filter { $0.kind == .dropped }
    XCTAssertEqual(dropped.map { $0["identifier"] }, [.string("x"), .string("r")])
    XCTAssertEqual(dropped.map { $0["reason"] }, [.string("denied"), .string("denied")])
    XCTAssertTrue(center.app("a").delivered.isEmpty)
    XCTAssertEqual(center.app("a").badge, 0, "a dropped notification does not set the badge")
    XCTAssertEqual(center.app("a").pending.count, 1, "the repeating request stays")
  }

  func testSettingsForEachStatus() {
    let (center, _) = makeCenter()
    func settings(_ status: AuthorizationStatus) -> [(String, String)] {
      center.setAuthorization(app: status.rawValue, status: status, answer: nil).features
    }
    let names = [
      "soundSetting", "badgeSetting", "alertSetting", "notificationCenterSetting", "lockScreenSetting",
      "carPlaySetting", "criticalAlertSetting", "announcementSetting", "timeSensitiveSetting", "alertStyle",
      "showPreviewsSetting", "providesAppNotificationSettings",
    ]
    let n = "notSupported"
    let e = "enabled"
    let d = "disabled"
    let expected: [AuthorizationStatus: [String]] = [
      .notDetermined: [n, n, n, n, n, n, n, n, n, "none", "always", "false"],
      .denied: [d, d, d, d, d, d, d, d, d, "none", "always", "false"],
      .authorized: [e, e, e, e, e, d, d, d, d, "banner", "always", "false"],
      .ephemeral: [e, e, e, e, e, d, d, d, d, "banner", "always", "false"],
      .provisional: [d, d, e, e, d, d, d, d, d, "none", "always", "false"],
    ]
    for status in AuthorizationStatus.allCases {
      let s = settings(status)
      XCTAssertEqual(s.map(\.0), names, "\(status)")
      XCTAssertEqual(s.map(\.1), expected[status], "\(status)")
    }
  }

  func testGrantedOptionsShowInSettings() {
    let (center, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    let r = center.requestAuthorization(
      app: "a", options: [.alert, .criticalAlert, .timeSensitive, .providesAppNotificationSettings])
    let f = Dictionary(uniqueKeysWithValues: r.settings.features)
    XCTAssertEqual(f["criticalAlertSetting"], "enabled")
    XCTAssertEqual(f["timeSensitiveSetting"], "enabled")
    XCTAssertEqual(f["soundSetting"], "disabled")
    XCTAssertEqual(f["providesAppNotificationSettings"], "true")
  }
}
