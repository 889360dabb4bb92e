import UNModel
import XCTest

/// The app's willPresent decides (`presentationDecision: delegate`): the notification is
/// held until `completePresentation`, the connection closing, or the real-time limit.
final class PresentationDecisionTests: XCTestCase {
  private func deciding(_ presentation: [PresentationOption] = PresentationOption.allCases) -> SessionInfo {
    var info = SessionInfo(role: .app, appId: "a", presentation: presentation)
    info.presentationDecision = .delegate
    return info
  }

  /// Schedules "m" now and returns the presentation id the deciding connection got.
  private func deliver(_ center: Center, badge: Int? = nil) throws -> String {
    _ = center.takeEffects()
    _ = try center.schedule(app: "a", request("m", content(badge: badge), nil))
    let effects = center.takeEffects()
    let ids = callbacks(effects).compactMap { (_, c) -> String? in
      if case .presentForDecision(_, _, _, let id) = c { return id }
      return nil
    }
    XCTAssertEqual(ids.count, 1)
    XCTAssertFalse(events(effects).contains { $0.kind == .presented || $0.kind == .delivered })
    return ids.first ?? ""
  }

  func testHeldUntilTheAnswerThenListedWhenItSaysList() throws {
    let (center, _) = makeCenter()
    center.attach(1, deciding())
    let id = try deliver(center, badge: 3)
    XCTAssertNil(center.app("a").delivered["m"], "not listed before the answer")
    XCTAssertEqual(center.badgeCount(app: "a"), 3)
    try center.completePresentation(app: "a", presentationId: id, options: [.sound, .list])
    XCTAssertNotNil(center.app("a").delivered["m"])
    let e = events(center.takeEffects())
    XCTAssertEqual(e.map(\.kind), [.presented, .delivered])
    XCTAssertEqual(ModelEventFields.strings(e[0], "presentation"), ["list", "sound"])
    assertThrows(.notFound(kind: "presentation", identifier: id)) { () throws(UNError) in
      try center.completePresentation(app: "a", presentationId: id, options: [])
    }
  }

  func testEmptyAnswerMeansNotShownAndNotListed() throws {
    let (center, _) = makeCenter()
    center.attach(1, deciding())
    let id = try deliver(center)
    try center.completePresentation(app: "a", presentationId: id, options: [])
    XCTAssertNil(center.app("a").delivered["m"])
    XCTAssertEqual(events(center.takeEffects()).map(\.kind), [.presented])
  }

  func testAnotherAppCannotAnswer() throws {
    let (center, _) = makeCenter()
    center.attach(1, deciding())
    let id = try deliver(center)
    assertThrows(.notFound(kind: "presentation", identifier: id)) { () throws(UNError) in
      try center.completePresentation(app: "b", presentationId: id, options: [.list])
    }
    XCTAssertEqual(center.pendingPresentations.count, 1)
  }

  func testClosingTheConnectionAppliesItsDeclaredOptions() throws {
    let (center, _) = makeCenter()
    center.attach(1, deciding([.banner]))
    _ = try deliver(center)
    center.detach(1)
    XCTAssertNotNil(center.app("a").delivered["m"])
    XCTAssertTrue(center.pendingPresentations.isEmpty)
  }

  func testExpiryAppliesTheDeclaredOptions() throws {
    let (center, _) = makeCenter()
    center.attach(1, deciding([.sound]))
    let id = try deliver(center)
    center.expirePresentation(id)
    XCTAssertNil(center.app("a").delivered["m"], "declared [sound]: not listed")
    XCTAssertTrue(center.pendingPresentations.isEmpty)
    center.expirePresentation(id)  // a second expiry is harmless
  }

  func testFirstAnswerOfSeveralConnectionsDecides() throws {
    let (center, _) = makeCenter()
    center.attach(1, deciding())
    center.attach(2, deciding())
    _ = center.takeEffects()
    _ = try center.schedule(app: "a", request("m", content(), nil))
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [1, 2])
    guard case .presentForDecision(_, _, _, let id) = sent[1].1 else { return XCTFail() }
    try center.completePresentation(app: "a", presentationId: id, options: [])
    center.detach(1)
    XCTAssertNil(center.app("a").delivered["m"], "the first answer ([]) decided")
  }

  func testDeclaredConnectionsStillGetPresentWithoutAnId() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a", presentation: [.list]))
    center.attach(2, deciding())
    _ = center.takeEffects()
    _ = try center.schedule(app: "a", request("m", content(), nil))
    let sent = callbacks(center.takeEffects())
    guard case .present = sent[0].1, case .presentForDecision(_, _, _, let id) = sent[1].1 else { return XCTFail() }
    try center.completePresentation(app: "a", presentationId: id, options: [])
    XCTAssertNotNil(center.app("a").delivered["m"], "the declared connection asked for list")
  }

  func testANewDeliveryReplacesOneStillWaiting() throws {
    let (center, _) = makeCenter()
    center.attach(1, deciding())
    let first = try deliver(center)
    let second = try deliver(center)
    XCTAssertNotEqual(first, second)
    XCTAssertEqual(Array(center.pendingPresentations.keys), [second])
  }

  func testDeclaredModeIsUnchanged() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = try center.schedule(app: "a", request("m", content(), nil))
    XCTAssertNotNil(center.app("a").delivered["m"])
    XCTAssertTrue(center.pendingPresentations.isEmpty)
  }

  func testResetForgetsWaitingPresentations() throws {
    let (center, _) = makeCenter()
    center.attach(1, deciding())
    _ = try deliver(center)
    center.reset(app: "a")
    XCTAssertTrue(center.pendingPresentations.isEmpty)
  }
}

/// Reads an event's fields for assertions.
enum ModelEventFields {
  static func strings(_ event: Event, _ name: String) -> [String]? {
    for (n, v) in event.fields where n == name {
      if case .strings(let list) = v { return list }
    }
    return nil
  }
}
