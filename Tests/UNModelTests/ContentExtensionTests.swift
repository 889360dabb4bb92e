import TestSupport
import UNModel
import XCTest

final class ContentExtensionTests: XCTestCase {
  private let other = Category(identifier: "other", actions: [Action(identifier: "ok", title: "OK")])

  /// App "a" in the foreground on 1; extensions: 7 serves a's "message", 8 serves a's
  /// "other", 9 serves b's "message".  "m1" (message) and "o1" (other) are delivered.
  private func scene(interaction: Bool = false) throws -> Center {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory, other])
    _ = try center.registerCategories(app: "b", [messageCategory])
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    center.attach(7, contentExtensionSession(app: "a", categories: ["message"], interaction: interaction))
    center.attach(8, contentExtensionSession(app: "a", categories: ["other"], interaction: true))
    center.attach(9, contentExtensionSession(app: "b", categories: ["message"], interaction: true))
    _ = try center.schedule(app: "a", request("m1", content(category: "message"), nil))
    _ = try center.schedule(app: "a", request("o1", content(category: "other"), nil))
    _ = try center.schedule(app: "a", request("plain", content(), nil))
    let effects = center.takeEffects()
    XCTAssertTrue(callbacks(effects).allSatisfy { $0.0 == 1 }, "nothing to extensions before expand")
    return center
  }

  private func defaultTap(_ center: Center, _ id: String = "m1") throws -> RespondResult {
    try center.respond(
      app: "a", identifier: id, actionIdentifier: SystemAction.defaultAction, userText: nil, authenticated: false)
  }

  func testExpandSendsDidReceiveToTheServingExtensionOnly() throws {
    let center = try scene()
    XCTAssertTrue(try center.expand(app: "a", identifier: "m1"))
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [7])
    guard case .didReceive(let n)? = sent.first?.1 else { return XCTFail("\(sent)") }
    XCTAssertEqual(n.identifier, "m1")
    XCTAssertEqual(center.app("a").expanded, "m1")
  }

  func testExpandUnknownNotificationIsNotFound() throws {
    let center = try scene()
    assertThrows(.notFound(kind: "delivered notification", identifier: "zz")) { () throws(UNError) in
      try center.expand(app: "a", identifier: "zz")
    }
  }

  func testExpandWithoutAnExtensionMarksItExpandedAndReturnsFalse() throws {
    let center = try scene()
    XCTAssertFalse(try center.expand(app: "a", identifier: "plain"))
    XCTAssertEqual(center.app("a").expanded, "plain")
    let effects = center.takeEffects()
    XCTAssertTrue(callbacks(effects).isEmpty)
    XCTAssertEqual(events(effects).first?["extension"], .bool(false))
    // respond then goes straight to the app.
    let r = try defaultTap(center, "plain")
    XCTAssertFalse(r.toExtension)
    XCTAssertTrue(r.delivered)
  }

  func testANewNotificationOfAServedCategoryWhileExpandedIsSentAgain() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    _ = center.takeEffects()
    _ = try center.schedule(app: "a", request("m2", content(category: "message"), nil))
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [1, 7])
    guard case .didReceive(let n)? = sent.last?.1 else { return XCTFail("\(sent)") }
    XCTAssertEqual(n.identifier, "m2")
    // Another category's notification is not sent to either extension.
    _ = try center.schedule(app: "a", request("o2", content(category: "other"), nil))
    XCTAssertEqual(callbacks(center.takeEffects()).map(\.0), [1])
    // Another app's notification of the same category is not either.
    _ = try center.schedule(app: "b", request("m3", content(category: "message"), nil))
    XCTAssertTrue(callbacks(center.takeEffects()).isEmpty)
  }

  func testNothingIsSentAgainAfterCollapse() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    try center.collapse(app: "a", identifier: "m1")
    XCTAssertNil(center.app("a").expanded)
    _ = center.takeEffects()
    _ = try center.schedule(app: "a", request("m2", content(category: "message"), nil))
    XCTAssertEqual(callbacks(center.takeEffects()).map(\.0), [1])
  }

  func testCollapseWhenNotExpandedIsActionUnavailable() throws {
    let center = try scene()
    assertThrows(.actionUnavailable(action: "collapse", reason: "notification 'm1' is not expanded")) {
      () throws(UNError) in try center.collapse(app: "a", identifier: "m1")
    }
    _ = try center.expand(app: "a", identifier: "m1")
    assertThrows(.actionUnavailable(action: "collapse", reason: "notification 'o1' is not expanded")) {
      () throws(UNError) in try center.collapse(app: "a", identifier: "o1")
    }
  }

  func testRespondWhileExpandedGoesToTheExtensionFirst() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    _ = center.takeEffects()
    let r = try defaultTap(center)
    XCTAssertTrue(r.toExtension)
    XCTAssertFalse(r.delivered)
    XCTAssertFalse(r.queued)
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [7], "the app is not told yet")
    guard case .didReceiveResponse(let id, let response)? = sent.first?.1 else { return XCTFail("\(sent)") }
    XCTAssertEqual(id, r.responseId)
    XCTAssertEqual(response.notification.identifier, "m1")
    XCTAssertEqual(response.actionIdentifier, SystemAction.defaultAction)
    XCTAssertNotNil(center.app("a").delivered["m1"], "still delivered while the extension decides")
  }

  func testDoNotDismissKeepsItAndDoesNotTellTheApp() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    let r = try defaultTap(center)
    _ = center.takeEffects()
    let done = try center.completeExtensionResponse(session: 7, responseId: r.responseId, option: .doNotDismiss)
    XCTAssertFalse(done.delivered)
    XCTAssertTrue(callbacks(center.takeEffects()).isEmpty)
    XCTAssertNotNil(center.app("a").delivered["m1"])
    XCTAssertEqual(center.app("a").expanded, "m1")
    XCTAssertTrue(center.agenda.isEmpty, "the timeout is cancelled")
    _ = try center.advanceClock(seconds: 60)
    XCTAssertTrue(callbacks(center.takeEffects()).isEmpty)
  }

  func testDismissRemovesItWithoutTellingTheApp() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    let r = try defaultTap(center)
    _ = center.takeEffects()
    let done = try center.completeExtensionResponse(session: 7, responseId: r.responseId, option: .dismiss)
    XCTAssertFalse(done.delivered)
    XCTAssertTrue(callbacks(center.takeEffects()).isEmpty)
    XCTAssertNil(center.app("a").delivered["m1"])
    XCTAssertNil(center.app("a").expanded)
  }

  func testDismissAndForwardActionTellsTheApp() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    let r = try defaultTap(center)
    _ = center.takeEffects()
    let done = try center.completeExtensionResponse(
      session: 7, responseId: r.responseId, option: .dismissAndForwardAction)
    XCTAssertTrue(done.delivered)
    XCTAssertEqual(done.responseId, r.responseId)
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [1])
    guard case .receive(let response, let deadline)? = sent.first?.1 else { return XCTFail("\(sent)") }
    XCTAssertEqual(response.responseId, r.responseId)
    XCTAssertNil(deadline)
    XCTAssertNil(center.app("a").delivered["m1"])
    assertThrows(.notFound(kind: "extension response", identifier: r.responseId)) { () throws(UNError) in
      try center.completeExtensionResponse(session: 7, responseId: r.responseId, option: .dismiss)
    }
  }

  func testForwardedBackgroundActionGetsItsDeadlineWhenForwarded() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    let r = try center.respond(
      app: "a", identifier: "m1", actionIdentifier: "delete", userText: nil, authenticated: false)
    _ = try center.advanceClock(seconds: 5)
    _ = center.takeEffects()
    _ = try center.completeExtensionResponse(session: 7, responseId: r.responseId, option: .dismissAndForwardAction)
    guard case .receive(_, let deadline)? = callbacks(to: 1, center.takeEffects()).first else { return XCTFail() }
    XCTAssertEqual(deadline, startPlus(35))
  }

  func testNoAnswerWithinThirtySecondsIsForwarded() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    let r = try defaultTap(center)
    _ = center.takeEffects()
    _ = try center.advanceClock(seconds: 29.999)
    XCTAssertTrue(center.takeEffects().isEmpty)
    _ = try center.advanceClock(seconds: 0.001)
    let effects = center.takeEffects()
    XCTAssertEqual(callbacks(effects).map(\.0), [1])
    guard case .receive(let response, _)? = callbacks(effects).first?.1 else { return XCTFail() }
    XCTAssertEqual(response.responseId, r.responseId)
    let e = events(effects).first { $0.kind == .extensionResponse }
    XCTAssertEqual(e?["option"], .string("dismissAndForwardAction"))
    XCTAssertEqual(e?["timedOut"], .bool(true))
    XCTAssertEqual(e?.date, startPlus(30))
    XCTAssertNil(center.app("a").delivered["m1"])
    XCTAssertTrue(center.pendingExtensionResponses.isEmpty)
  }

  func testInteractReachesTheExtension() throws {
    let center = try scene(interaction: true)
    _ = try center.expand(app: "a", identifier: "m1")
    _ = center.takeEffects()
    let value = JSONText(bytes: Array("2".utf8))
    try center.interact(app: "a", identifier: "m1", control: "rating", value: value)
    let effects = center.takeEffects()
    XCTAssertEqual(
      callbacks(effects).map(\.1), [.interaction(identifier: "m1", control: "rating", value: value)])
    XCTAssertEqual(callbacks(effects).map(\.0), [7])
    XCTAssertEqual(events(effects).map(\.kind), [.interaction])
  }

  func testInteractNeedsExpandedExtensionAndUserInteraction() throws {
    let value = JSONText(bytes: Array("1".utf8))
    let notExpanded = UNError.actionUnavailable(
      action: "tap", reason: "notification 'm1' is not expanded in a content extension")
    // Not expanded.
    let c1 = try scene(interaction: true)
    assertThrows(notExpanded) { () throws(UNError) in
      try c1.interact(app: "a", identifier: "m1", control: "tap", value: value)
    }
    // Expanded, but another notification.
    _ = try c1.expand(app: "a", identifier: "o1")
    assertThrows(notExpanded) { () throws(UNError) in
      try c1.interact(app: "a", identifier: "m1", control: "tap", value: value)
    }
    // Expanded without an extension for the category.
    _ = try c1.expand(app: "a", identifier: "plain")
    assertThrows(
      .actionUnavailable(action: "tap", reason: "notification 'plain' is not expanded in a content extension")
    ) { () throws(UNError) in
      try c1.interact(app: "a", identifier: "plain", control: "tap", value: value)
    }
    // Expanded with an extension that has userInteractionEnabled false.
    let c2 = try scene(interaction: false)
    _ = try c2.expand(app: "a", identifier: "m1")
    _ = c2.takeEffects()
    assertThrows(
      .actionUnavailable(action: "tap", reason: "the content extension has userInteractionEnabled false")
    ) { () throws(UNError) in
      try c2.interact(app: "a", identifier: "m1", control: "tap", value: value)
    }
    XCTAssertTrue(callbacks(c2.takeEffects()).isEmpty)
    // After collapse.
    let c3 = try scene(interaction: true)
    _ = try c3.expand(app: "a", identifier: "m1")
    try c3.collapse(app: "a", identifier: "m1")
    assertThrows(notExpanded) { () throws(UNError) in
      try c3.interact(app: "a", identifier: "m1", control: "tap", value: value)
    }
    // Unknown notification.
    assertThrows(.notFound(kind: "delivered notification", identifier: "zz")) { () throws(UNError) in
      try c3.interact(app: "a", identifier: "zz", control: "tap", value: value)
    }
  }

  func testTheExtensionGoingAwayEndsTheExtensionPath() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    center.detach(7)
    _ = center.takeEffects()
    let r = try defaultTap(center)
    XCTAssertFalse(r.toExtension)
    XCTAssertTrue(r.delivered)
  }

  /// Removing the expanded notification does not end the expanded state: a new
  /// notification delivered later with the same identifier is treated as expanded, and
  /// the user's tap on it goes to the content extension although nobody expanded it.
  func testRemovingTheExpandedNotificationEndsTheExpandedState() throws {
    let center = try scene()
    _ = try center.expand(app: "a", identifier: "m1")
    XCTAssertEqual(center.removeDelivered(app: "a", identifiers: ["m1"]), 1)
    XCTAssertNil(center.app("a").expanded)
    _ = try center.schedule(app: "a", request("m1", content(category: "message"), nil))
    let r = try defaultTap(center)
    XCTAssertFalse(r.toExtension)
    XCTAssertTrue(r.delivered)
  }
}

final class ExtensionOwnershipTests: XCTestCase {
  private func expandedWithExtension() throws -> (Center, String) {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    center.attach(7, contentExtensionSession(app: "a", categories: ["message"]))
    _ = try center.schedule(app: "a", request("m", content(category: "message"), nil))
    _ = try center.expand(app: "a", identifier: "m")
    let r = try center.respond(
      app: "a", identifier: "m", actionIdentifier: SystemAction.defaultAction, userText: nil, authenticated: false)
    XCTAssertTrue(r.toExtension)
    _ = center.takeEffects()
    return (center, r.responseId)
  }

  func testOnlyTheExtensionThatGotTheResponseMayAnswerIt() throws {
    let (center, id) = try expandedWithExtension()
    assertThrows(.notFound(kind: "extension response", identifier: id)) { () throws(UNError) in
      try center.completeExtensionResponse(session: 1, responseId: id, option: .dismiss)
    }
    XCTAssertNoThrow(try center.completeExtensionResponse(session: 7, responseId: id, option: .dismiss))
  }

  func testAContentExtensionGoingAwayForwardsAtOnce() throws {
    let (center, _) = try expandedWithExtension()
    center.detach(7)
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [1])
    guard case .receive(let response, _) = sent.first?.1 else { return XCTFail("no receive") }
    XCTAssertEqual(response.notification.identifier, "m")
    XCTAssertNil(center.app("a").delivered["m"])
  }

  func testANeverFiringReplacementRemovesTheOldRequest() throws {
    let (center, _) = makeCenter()
    _ = try center.schedule(app: "a", request("r", content(), interval(60)))
    let past = try CalendarTrigger(
      dateMatching: .init(year: 2020, month: 1, day: 1, hour: 0), timeZone: "UTC", repeats: false)
    let r = try center.schedule(app: "a", request("r", content(), .calendar(past)))
    XCTAssertFalse(r.scheduled)
    XCTAssertTrue(r.replaced)
    XCTAssertEqual(center.app("a").pending.count, 0)
  }
}
