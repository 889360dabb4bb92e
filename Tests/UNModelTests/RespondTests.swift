import TestSupport
import UNModel
import XCTest

final class RespondTests: XCTestCase {
  private func delivered(_ center: Center, category: String = "message") throws {
    _ = try center.registerCategories(app: "a", [messageCategory])
    _ = try center.schedule(app: "a", request("m", content(category: category), nil))
    _ = center.takeEffects()
  }

  func testTextInputActionNeedsUserTextAndReachesTheApp() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"), foreground: false)
    try delivered(center)
    assertThrows(.invalidParams(field: "userText", problem: "required by text-input action 'reply'")) {
      () throws(UNError) in
      try center.respond(app: "a", identifier: "m", actionIdentifier: "reply", userText: nil, authenticated: false)
    }
    let result = try center.respond(
      app: "a", identifier: "m", actionIdentifier: "reply", userText: "Dzięki", authenticated: false)
    XCTAssertEqual(result.delivered, true)
    XCTAssertEqual(result.queued, false)
    guard case .receive(let response, let deadline) = callbacks(center.takeEffects()).first?.1 else {
      return XCTFail("no receive")
    }
    XCTAssertEqual(response.userText, "Dzięki")
    XCTAssertNil(deadline, "reply has .foreground: no background deadline")
    XCTAssertTrue(center.isForeground("a"), "a foreground action brings the app forward")
    XCTAssertNil(center.app("a").delivered["m"])
    assertThrows(.notFound(kind: "delivered notification", identifier: "m")) { () throws(UNError) in
      try center.respond(app: "a", identifier: "m", actionIdentifier: "reply", userText: "x", authenticated: false)
    }
  }

  func testOtherActionsRejectUserTextAndUnshownActionsAreUnavailable() throws {
    let (center, _) = makeCenter()
    try delivered(center)
    assertThrows(
      .invalidParams(field: "userText", problem: "not allowed for action 'delete' (not a text-input action)")
    ) { () throws(UNError) in
      try center.respond(app: "a", identifier: "m", actionIdentifier: "delete", userText: "x", authenticated: false)
    }
    assertThrows(.actionUnavailable(action: "archive", reason: "not offered by notification 'm'")) {
      () throws(UNError) in
      try center.respond(app: "a", identifier: "m", actionIdentifier: "archive", userText: nil, authenticated: false)
    }
  }

  func testUnknownCategoryShowsNoActions() throws {
    let (center, _) = makeCenter()
    try delivered(center, category: "Message")
    assertThrows(.actionUnavailable(action: "delete", reason: "not offered by notification 'm'")) {
      () throws(UNError) in
      try center.respond(app: "a", identifier: "m", actionIdentifier: "delete", userText: nil, authenticated: false)
    }
  }

  func testBackgroundActionCarriesADeadlineAndCanBeCompleted() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    try delivered(center)
    let result = try center.respond(
      app: "a", identifier: "m", actionIdentifier: "delete", userText: nil, authenticated: false)
    guard case .receive(_, let deadline) = callbacks(center.takeEffects()).first?.1 else { return XCTFail() }
    XCTAssertEqual(deadline?.rfc3339, "2026-01-01T08:00:30.000Z")
    XCTAssertNoThrow(try center.completeResponse(app: "a", responseId: result.responseId))
    assertThrows(.notFound(kind: "open response", identifier: result.responseId)) { () throws(UNError) in
      try center.completeResponse(app: "a", responseId: result.responseId)
    }
  }

  func testDismissTellsTheAppOnlyWithCustomDismissAction() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    try delivered(center)
    let told = try center.respond(
      app: "a", identifier: "m", actionIdentifier: SystemAction.dismissAction, userText: nil, authenticated: false)
    XCTAssertTrue(told.delivered)
    XCTAssertEqual(callbacks(center.takeEffects()).count, 1)
    var plain = messageCategory
    plain.options = []
    _ = try center.registerCategories(app: "a", [plain])
    _ = try center.schedule(app: "a", request("m2", content(category: "message"), nil))
    _ = center.takeEffects()
    let silent = try center.respond(
      app: "a", identifier: "m2", actionIdentifier: SystemAction.dismissAction, userText: nil, authenticated: false)
    XCTAssertFalse(silent.delivered)
    XCTAssertFalse(silent.queued)
    XCTAssertTrue(callbacks(center.takeEffects()).isEmpty)
    XCTAssertNil(center.app("a").delivered["m2"], "dismissed notifications are removed")
  }

  func testDefaultActionBringsTheAppForward() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"), foreground: false)
    try delivered(center)
    _ = try center.respond(
      app: "a", identifier: "m", actionIdentifier: SystemAction.defaultAction, userText: nil, authenticated: false)
    XCTAssertTrue(center.isForeground("a"))
  }

  func testResponsesQueueWithoutConnectionAndArriveOldestFirstOnHello() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    for id in ["m1", "m2"] { _ = try center.schedule(app: "a", request(id, content(category: "message"), nil)) }
    let r1 = try center.respond(
      app: "a", identifier: "m1", actionIdentifier: SystemAction.defaultAction, userText: nil, authenticated: false)
    let r2 = try center.respond(
      app: "a", identifier: "m2", actionIdentifier: "reply", userText: "hi", authenticated: false)
    XCTAssertTrue(r1.queued && r2.queued)
    XCTAssertEqual(center.attach(7, SessionInfo(role: .app, appId: "a")), 2)
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [7, 7])
    let ids: [String] = sent.compactMap {
      if case .receive(let r, _) = $0.1 { return r.notification.identifier }
      return nil
    }
    XCTAssertEqual(ids, ["m1", "m2"])
    XCTAssertEqual(center.attach(8, SessionInfo(role: .app, appId: "a")), 0, "delivered once")
  }

  func testAuthenticationRequiredOnALockedDevice() throws {
    let (center, _) = makeCenter()
    var secure = messageCategory
    secure.actions.append(Action(identifier: "pay", title: "Pay", options: [.authenticationRequired, .foreground]))
    _ = try center.registerCategories(app: "a", [secure])
    _ = try center.schedule(app: "a", request("m", content(category: "message"), nil))
    center.deviceLocked = true
    assertThrows(.authenticationRequired(action: "pay")) { () throws(UNError) in
      try center.respond(app: "a", identifier: "m", actionIdentifier: "pay", userText: nil, authenticated: false)
    }
    XCTAssertNoThrow(
      try center.respond(app: "a", identifier: "m", actionIdentifier: "pay", userText: nil, authenticated: true))
  }
}
