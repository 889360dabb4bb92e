import UNModel
import XCTest

final class RemotePushTests: XCTestCase {
  private let payload = #"{"aps":{"alert":"hi","mutable-content":1},"from":"Anna"}"#

  private func presented(_ effects: [Effect], to session: SessionID) -> [DeliveredNotification] {
    callbacks(to: session, effects).compactMap {
      if case .present(let n, _, _) = $0 { return n }
      return nil
    }
  }

  func testForegroundPushIsPresentedAtOnceWithAPushTrigger() throws {
    let (center, _) = makeCenter()
    _ = try center.advanceClock(seconds: 3)
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    let r = try center.pushRemote(app: "a", remotePush(alertContent(), payload: payload), identifier: "p1")
    XCTAssertEqual(r.identifier, "p1")
    XCTAssertTrue(r.delivered)
    let shown = presented(center.takeEffects(), to: 1)
    XCTAssertEqual(shown.count, 1)
    XCTAssertEqual(shown.first?.request.trigger, .push)
    XCTAssertEqual(shown.first?.date, startPlus(3))
    XCTAssertEqual(shown.first?.request.content.userInfo, JSONText(bytes: Array(payload.utf8)))
    XCTAssertNotNil(center.app("a").delivered["p1"])
    XCTAssertEqual(center.app("a").pending.count, 0)
  }

  func testBackgroundPushGoesToTheList() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"), foreground: false)
    var c = alertContent()
    c.badge = 5
    let r = try center.pushRemote(app: "a", remotePush(c), identifier: nil)
    XCTAssertEqual(r.identifier, "push-1")
    XCTAssertTrue(r.delivered)
    XCTAssertTrue(callbacks(center.takeEffects()).isEmpty)
    XCTAssertEqual(center.app("a").delivered["push-1"]?.request.trigger, .push)
    XCTAssertEqual(center.app("a").badge, 5)
  }

  func testPushIdentifiersCountUp() throws {
    let (center, _) = makeCenter()
    XCTAssertEqual(try center.pushRemote(app: "a", remotePush(alertContent()), identifier: nil).identifier, "push-1")
    XCTAssertEqual(try center.pushRemote(app: "a", remotePush(alertContent()), identifier: "x").identifier, "x")
    XCTAssertEqual(try center.pushRemote(app: "b", remotePush(alertContent()), identifier: nil).identifier, "push-3")
  }

  func testSilentPushReachesTheAppConnectionsOnly() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    center.attach(2, SessionInfo(role: .app, appId: "a"), foreground: false)
    center.attach(3, SessionInfo(role: .app, appId: "b"))
    center.attach(4, SessionInfo(role: .observer, appId: "a"))
    let silent = #"{"aps":{"content-available":1},"sync":true}"#
    let r = try center.pushRemote(app: "a", remotePush(Content(), payload: silent, silent: true), identifier: nil)
    XCTAssertFalse(r.delivered)
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [1, 2])
    for (_, callback) in sent {
      XCTAssertEqual(callback, .remote(payload: JSONText(bytes: Array(silent.utf8))))
    }
    XCTAssertTrue(center.app("a").delivered.isEmpty)
  }

  func testMutablePushGoesToTheServiceExtensionOnly() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    center.attach(6, SessionInfo(role: .serviceExtension, appId: "b"))
    let push = remotePush(alertContent(), payload: payload, mutable: true)
    let r = try center.pushRemote(app: "a", push, identifier: "m")
    XCTAssertFalse(r.delivered)
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [5])
    guard case .modifyContent(let requestId, let request, let deadline) = sent.first?.1 else { return XCTFail() }
    XCTAssertEqual(requestId, "mod-1")
    XCTAssertEqual(request.identifier, "m")
    XCTAssertEqual(request.trigger, .push)
    XCTAssertEqual(request.content, push.content)
    XCTAssertEqual(deadline, startPlus(30))
    XCTAssertTrue(center.app("a").delivered.isEmpty)
    XCTAssertEqual(center.pendingModifications["mod-1"]?.session, 5)
  }

  func testCompleteContentWithAlertTextDeliversTheModifiedContent() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    _ = try center.pushRemote(app: "a", remotePush(alertContent(), payload: payload, mutable: true), identifier: "m")
    _ = center.takeEffects()
    _ = try center.advanceClock(seconds: 4)
    var modified = alertContent("Zmieniona", body: "Odszyfrowana")
    modified.userInfo = .emptyObject
    XCTAssertTrue(try center.completeContent(session: 5, requestId: "mod-1", content: modified))
    let effects = center.takeEffects()
    let shown = presented(effects, to: 1)
    XCTAssertEqual(shown.count, 1)
    XCTAssertEqual(shown.first?.request.content.title, "Zmieniona")
    XCTAssertEqual(shown.first?.request.content.body, "Odszyfrowana")
    XCTAssertEqual(
      shown.first?.request.content.userInfo, JSONText(bytes: Array(payload.utf8)), "original userInfo kept")
    XCTAssertEqual(shown.first?.date, startPlus(4))
    XCTAssertEqual(center.app("a").delivered["m"]?.request.content.title, "Zmieniona")
    XCTAssertTrue(center.agenda.isEmpty)
    XCTAssertTrue(center.pendingModifications.isEmpty)
    let modifiedEvent = events(effects).first { $0.kind == .modified }
    XCTAssertEqual(modifiedEvent?["modified"], .bool(true))
  }

  func testCompleteContentKeepsAModifiedUserInfo() throws {
    let (center, _) = makeCenter()
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    _ = try center.pushRemote(app: "a", remotePush(alertContent(), payload: payload, mutable: true), identifier: "m")
    var modified = alertContent("Zmieniona")
    modified.userInfo = JSONText(bytes: Array(#"{"k":1}"#.utf8))
    XCTAssertTrue(try center.completeContent(session: 5, requestId: "mod-1", content: modified))
    XCTAssertEqual(center.app("a").delivered["m"]?.request.content.userInfo, modified.userInfo)
  }

  func testCompleteContentWithoutAlertTextDeliversTheOriginal() throws {
    let (center, _) = makeCenter()
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    let original = alertContent("Oryginał")
    _ = try center.pushRemote(app: "a", remotePush(original, payload: payload, mutable: true), identifier: "m")
    _ = center.takeEffects()
    var noText = Content()
    noText.badge = 9
    XCTAssertFalse(try center.completeContent(session: 5, requestId: "mod-1", content: noText))
    XCTAssertEqual(center.app("a").delivered["m"]?.request.content.title, "Oryginał")
    let e = events(center.takeEffects())
    XCTAssertEqual(e.first?.kind, .modified)
    XCTAssertEqual(e.first?["modified"], .bool(false))
    // Completing twice, or from another connection, is notFound.
    assertThrows(.notFound(kind: "content modification request", identifier: "mod-1")) { () throws(UNError) in
      try center.completeContent(session: 5, requestId: "mod-1", content: nil)
    }
  }

  func testCompleteContentFromAnotherConnectionIsNotFound() throws {
    let (center, _) = makeCenter()
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    _ = try center.pushRemote(app: "a", remotePush(alertContent(), mutable: true), identifier: "m")
    assertThrows(.notFound(kind: "content modification request", identifier: "mod-1")) { () throws(UNError) in
      try center.completeContent(session: 6, requestId: "mod-1", content: alertContent())
    }
    XCTAssertNotNil(center.pendingModifications["mod-1"])
  }

  func testServiceDeadlineWarnsThenDeliversTheOriginalASecondLater() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    _ = try center.pushRemote(app: "a", remotePush(alertContent("Oryginał"), mutable: true), identifier: "m")
    _ = center.takeEffects()
    _ = try center.advanceClock(seconds: 29.999)
    XCTAssertTrue(center.takeEffects().isEmpty)
    _ = try center.advanceClock(seconds: 0.001)
    XCTAssertEqual(callbacks(center.takeEffects()).map(\.0), [5])
    _ = try center.advanceClock(seconds: 0.5)
    XCTAssertTrue(center.takeEffects().isEmpty)
    XCTAssertTrue(center.app("a").delivered.isEmpty)
    _ = try center.advanceClock(seconds: 0.5)
    let effects = center.takeEffects()
    let shown = presented(effects, to: 1)
    XCTAssertEqual(shown.map(\.identifier), ["m"])
    XCTAssertEqual(center.app("a").delivered["m"]?.date, startPlus(31))
    XCTAssertEqual(center.app("a").delivered["m"]?.request.content.title, "Oryginał")
    XCTAssertEqual(events(effects).first { $0.kind == .modified }?["modified"], .bool(false))
    XCTAssertTrue(center.pendingModifications.isEmpty)
    XCTAssertTrue(center.agenda.isEmpty)
  }

  func testServiceTimeWillExpireIsSentAtThirtySeconds() throws {
    let (center, _) = makeCenter()
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    _ = try center.pushRemote(app: "a", remotePush(alertContent(), mutable: true), identifier: "m")
    _ = center.takeEffects()
    _ = try center.advanceClock(seconds: 30)
    XCTAssertEqual(callbacks(to: 5, center.takeEffects()), [.serviceTimeWillExpire(requestId: "mod-1")])
    // It may still answer in its last second.
    _ = try center.advanceClock(seconds: 0.5)
    XCTAssertTrue(try center.completeContent(session: 5, requestId: "mod-1", content: alertContent("Późno")))
    XCTAssertEqual(center.app("a").delivered["m"]?.request.content.title, "Późno")
    XCTAssertEqual(eventKinds(center.takeEffects()), [.modified, .delivered])
    _ = try center.advanceClock(seconds: 5)
    XCTAssertFalse(eventKinds(center.takeEffects()).contains(.delivered), "delivered once")
  }

  func testServiceExtensionDisconnectingDeliversWhatItWasModifying() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    _ = try center.pushRemote(app: "a", remotePush(alertContent("Oryginał"), mutable: true), identifier: "m")
    _ = try center.advanceClock(seconds: 2)
    _ = center.takeEffects()
    center.detach(5)
    let shown = presented(center.takeEffects(), to: 1)
    XCTAssertEqual(shown.map(\.identifier), ["m"])
    XCTAssertEqual(center.app("a").delivered["m"]?.date, startPlus(2))
    XCTAssertTrue(center.pendingModifications.isEmpty)
    XCTAssertTrue(center.agenda.isEmpty)
    _ = try center.advanceClock(seconds: 60)
    XCTAssertTrue(callbacks(center.takeEffects()).isEmpty)
  }

  func testWithoutAServiceExtensionAMutablePushIsDeliveredAtOnce() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    center.attach(6, SessionInfo(role: .serviceExtension, appId: "b"))
    let r = try center.pushRemote(app: "a", remotePush(alertContent(), mutable: true), identifier: "m")
    XCTAssertTrue(r.delivered)
    XCTAssertEqual(callbacks(center.takeEffects()).map(\.0), [1])
  }

  func testMutablePushWithoutAlertTextSkipsTheExtension() throws {
    let (center, _) = makeCenter()
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    var badgeOnly = Content()
    badgeOnly.badge = 2
    let r = try center.pushRemote(app: "a", remotePush(badgeOnly, mutable: true), identifier: "m")
    XCTAssertTrue(r.delivered)
    XCTAssertTrue(callbacks(to: 5, center.takeEffects()).isEmpty)
  }

  func testPushToADeniedAppIsDropped() throws {
    let (center, _) = makeCenter()
    _ = center.setAuthorization(app: "a", status: .denied, answer: nil)
    _ = center.takeEffects()
    _ = try center.pushRemote(app: "a", remotePush(alertContent()), identifier: "p")
    let e = events(center.takeEffects())
    XCTAssertEqual(e.map(\.kind), [.pushed, .dropped])
    XCTAssertEqual(e.last?["reason"], .string("denied"))
  }

  /// `pushRemote` reports `delivered: true` for a push that was dropped because the app's
  /// authorization is denied (a `dropped` event, nothing in the delivered list).
  func testPushToADeniedAppIsNotReportedDelivered() throws {
    let (center, _) = makeCenter()
    _ = center.setAuthorization(app: "a", status: .denied, answer: nil)
    let r = try center.pushRemote(app: "a", remotePush(alertContent()), identifier: "p")
    XCTAssertTrue(center.app("a").delivered.isEmpty)
    XCTAssertFalse(r.delivered)
  }
}
