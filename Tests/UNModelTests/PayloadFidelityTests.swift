import UNModel
import XCTest

/// What an iPhone does with pushes and requests beyond plain alerts: loc-keys resolved
/// with the app's strings, badge-only and sound-only notifications, content-available
/// with an alert, Live Activity updates, and the critical-alert gate.
final class PayloadFidelityTests: XCTestCase {
  private func presented(_ effects: [Effect]) -> [DeliveredNotification] {
    callbacks(effects).compactMap {
      if case .present(let n, _, _) = $0.1 { return n }
      return nil
    }
  }

  // MARK: localized strings

  func testFormatSubstitutesPositionalAndSequentialArguments() {
    XCTAssertEqual(Center.format("%@ sent you %@", ["Anna", "a photo"]), "Anna sent you a photo")
    XCTAssertEqual(Center.format("%2$@ by %1$@", ["Anna", "Song"]), "Song by Anna")
    XCTAssertEqual(Center.format("100%% %@", ["done"]), "100% done")
    XCTAssertEqual(Center.format("%@ and %@", ["one"]), "one and ", "a missing argument reads as empty")
    XCTAssertEqual(Center.format("%d costs $5", ["x"]), "%d costs $5", "other specifiers are copied")
    XCTAssertEqual(Center.format("trailing %", []), "trailing %")
  }

  func testLocKeysResolveWithTheAppsStringsOrTheKeyItself() throws {
    let (center, _) = makeCenter()
    XCTAssertEqual(
      center.registerLocalizedStrings(
        app: "a", ["GAME_PLAY_REQUEST_FORMAT": "%@ and %@ have invited you to play Monopoly"]), 1)
    let loc = LocalizedAlert(
      title: ("GAME_PLAY_REQUEST_TITLE", []), body: ("GAME_PLAY_REQUEST_FORMAT", ["Jenna", "Frank"]))
    var push = remotePush(Content())
    push.localization = loc
    XCTAssertTrue(try center.pushRemote(app: "a", push, identifier: "p1").delivered)
    let n = try XCTUnwrap(center.app("a").delivered["p1"])
    XCTAssertEqual(n.request.content.body, "Jenna and Frank have invited you to play Monopoly")
    XCTAssertEqual(n.request.content.title, "GAME_PLAY_REQUEST_TITLE", "no such string: the key is the format")
    // Another app has no strings: its key is shown as it is, with the arguments.
    var other = remotePush(Content())
    other.localization = LocalizedAlert(body: ("%@ liked your post", ["Anna"]))
    _ = try center.pushRemote(app: "b", other, identifier: "p2")
    XCTAssertEqual(center.app("b").delivered["p2"]?.request.content.body, "Anna liked your post")
  }

  func testStringsAreReplacedWholeAndWipedByReset() {
    let (center, _) = makeCenter()
    _ = center.registerLocalizedStrings(app: "a", ["A": "1", "B": "2"])
    _ = center.registerLocalizedStrings(app: "a", ["C": "3"])
    XCTAssertEqual(center.localizedStrings(app: "a"), ["C": "3"])
    center.reset(app: "a")
    XCTAssertEqual(center.localizedStrings(app: "a"), [:])
  }

  // MARK: no alert text

  func testBadgeOnlyPushSetsTheBadgeAndShowsNothing() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = center.takeEffects()
    var c = Content()
    c.badge = 7
    let r = try center.pushRemote(app: "a", remotePush(c, payload: #"{"aps":{"badge":7}}"#), identifier: "b1")
    XCTAssertTrue(r.delivered)
    let effects = center.takeEffects()
    XCTAssertTrue(presented(effects).isEmpty, "no banner")
    XCTAssertTrue(callbacks(effects).isEmpty)
    XCTAssertNil(center.app("a").delivered["b1"], "nothing in Notification Center")
    XCTAssertEqual(center.app("a").badge, 7)
    let delivered = events(effects).first { $0.kind == .delivered }
    XCTAssertEqual(delivered?.fields.first { $0.0 == "shown" }?.1, .bool(false))
    XCTAssertFalse(eventKinds(effects).contains(.soundPlayed))
  }

  func testSoundOnlyLocalRequestPlaysItsSoundAndListsNothing() throws {
    let (center, _) = makeCenter()
    var c = Content()
    c.sound = .named("chime.caf")
    _ = try center.schedule(app: "a", request("s1", c, interval(5)))
    _ = center.takeEffects()
    _ = try center.advanceClock(seconds: 5)
    let effects = center.takeEffects()
    XCTAssertTrue(center.app("a").delivered.isEmpty)
    let played = try XCTUnwrap(events(effects).first { $0.kind == .soundPlayed })
    XCTAssertEqual(played.fields.map(\.0), ["identifier", "sound", "critical"])
    XCTAssertEqual(played.fields[1].1, .string("chime.caf"))
    XCTAssertEqual(played.fields[2].1, .bool(false))
  }

  // MARK: content-available with an alert

  func testContentAvailableWithAnAlertShowsItAndWakesTheApp() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = center.takeEffects()
    var push = remotePush(alertContent(), payload: #"{"aps":{"alert":"x","content-available":1}}"#)
    push.contentAvailable = true
    XCTAssertTrue(try center.pushRemote(app: "a", push, identifier: "p").delivered)
    let sent = callbacks(center.takeEffects()).map(\.1)
    XCTAssertEqual(sent.count, 2)
    guard case .present? = sent.first, case .remote(let payload)? = sent.last else {
      return XCTFail("expected present then remote, got \(sent)")
    }
    XCTAssertEqual(payload, push.payload)
    XCTAssertNotNil(center.app("a").delivered["p"])
  }

  // MARK: Live Activity

  func testLiveActivityPushIsRecordedAndNotShown() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = center.takeEffects()
    var push = remotePush(Content(), payload: #"{"aps":{"event":"update","content-state":{}}}"#)
    push.liveActivityEvent = "update"
    XCTAssertFalse(try center.pushRemote(app: "a", push, identifier: "la").delivered)
    let effects = center.takeEffects()
    XCTAssertTrue(callbacks(effects).isEmpty)
    XCTAssertTrue(center.app("a").delivered.isEmpty)
    XCTAssertEqual(events(effects).first?.fields.last?.1, .string("update"))
  }

  // MARK: critical alerts

  func testCriticalSoundIsCriticalOnlyWithCriticalAlertPermission() throws {
    let (center, _) = makeCenter()
    var c = alertContent()
    c.sound = Sound(name: "alarm.caf", critical: true, volume: 0.8)
    c.interruptionLevel = .critical
    _ = try center.pushRemote(app: "a", remotePush(c), identifier: "plain")
    let plain = try XCTUnwrap(center.app("a").delivered["plain"]?.request.content)
    XCTAssertEqual(plain.sound, .named("alarm.caf"), "not authorized: a normal sound")
    XCTAssertEqual(plain.interruptionLevel, .active)

    center.app("a").grantedOptions = [.alert, .sound, .badge, .criticalAlert]
    XCTAssertEqual(center.settings(app: "a").features.first { $0.0 == "criticalAlertSetting" }?.1, "enabled")
    _ = try center.pushRemote(app: "a", remotePush(c), identifier: "loud")
    let loud = try XCTUnwrap(center.app("a").delivered["loud"]?.request.content)
    XCTAssertEqual(loud.sound, Sound(name: "alarm.caf", critical: true, volume: 0.8))
    XCTAssertEqual(loud.interruptionLevel, .critical)
  }

  func testCriticalAlertsAreAskedForSeparatelyOnceAuthorized() {
    let (center, _) = makeCenter()
    XCTAssertFalse(center.app("a").grantedOptions.contains(.criticalAlert))
    _ = center.requestAuthorization(app: "a", options: [.alert, .criticalAlert])
    XCTAssertEqual(center.app("a").grantedOptions, [.alert, .sound, .badge, .criticalAlert])
    XCTAssertEqual(center.app("a").authorization, .authorized)
    _ = center.setAuthorization(app: "b", status: nil, answer: false)
    _ = center.requestAuthorization(app: "b", options: [.criticalAlert])
    XCTAssertFalse(center.app("b").grantedOptions.contains(.criticalAlert), "the user said no")
  }

  func testSoundVolumeOutOfRangeIsRefused() {
    var c = alertContent()
    c.sound = Sound(name: nil, critical: true, volume: 2)
    XCTAssertThrowsError(try c.validate())
  }
}
