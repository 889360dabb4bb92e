import TestSupport
import UNModel
import XCTest

/// `reset` wipes one app's state; its connections stay bound (proto-docs/README.md, "reset").
final class ResetTests: XCTestCase {
  func testResetWipesPendingDeliveredBadgeAndOpenResponses() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = try center.schedule(app: "a", request("m", content(category: "message", badge: 4), nil))
    _ = try center.schedule(app: "a", request("p", content(), interval(10)))
    let r = try center.respond(
      app: "a", identifier: "m", actionIdentifier: "delete", userText: nil, authenticated: false)
    _ = try center.schedule(app: "b", request("q", content(), interval(10)))
    center.reset(app: "a")
    XCTAssertEqual(center.app("a").pending.count, 0)
    XCTAssertTrue(center.app("a").delivered.isEmpty)
    XCTAssertEqual(center.app("a").badge, 0)
    XCTAssertEqual(center.app("a").categories, [])
    XCTAssertNil(center.openResponses[r.responseId])
    XCTAssertEqual(center.connections(of: "a"), [1], "connections stay bound")
    XCTAssertEqual(center.app("b").pending.count, 1)
    _ = center.takeEffects()
    _ = try center.advanceClock(seconds: 60)
    XCTAssertEqual(eventKinds(center.takeEffects()), [.fired, .delivered], "only b's request fires; nothing expires")
  }

  /// A push the service extension is modifying when the app is reset is still delivered
  /// into the wiped app 31 s later (`pendingModifications` and the agenda are not cleared).
  func testResetForgetsAPushBeingModified() throws {
    let (center, _) = makeCenter()
    center.attach(5, SessionInfo(role: .serviceExtension, appId: "a"))
    _ = try center.pushRemote(app: "a", remotePush(alertContent(), mutable: true), identifier: "m")
    center.reset(app: "a")
    XCTAssertTrue(center.pendingModifications.isEmpty)
    _ = try center.advanceClock(seconds: 31)
    XCTAssertTrue(center.app("a").delivered.isEmpty, "nothing appears in the wiped app")
  }

  /// A response waiting for the content extension when the app is reset is forwarded to
  /// the wiped app when the extension's 30 s run out (queued for its next hello).
  func testResetForgetsAResponseWaitingForTheContentExtension() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    center.attach(7, contentExtensionSession(categories: ["message"]))
    _ = try center.schedule(app: "a", request("m", content(category: "message"), nil))
    _ = try center.expand(app: "a", identifier: "m")
    _ = try center.respond(
      app: "a", identifier: "m", actionIdentifier: SystemAction.defaultAction, userText: nil, authenticated: false)
    center.reset(app: "a")
    XCTAssertTrue(center.pendingExtensionResponses.isEmpty)
    _ = try center.advanceClock(seconds: 31)
    XCTAssertTrue(center.app("a").queuedResponses.isEmpty, "the wiped app gets no response")
  }
}
