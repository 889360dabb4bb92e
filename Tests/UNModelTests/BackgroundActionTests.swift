import TestSupport
import UNModel
import XCTest

final class BackgroundActionTests: XCTestCase {
  private func deliveredMessage(foregroundConnection: Bool = true) throws -> (Center, ManualClock) {
    let (center, clock) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    if foregroundConnection { center.attach(1, SessionInfo(role: .app, appId: "a")) }
    _ = try center.schedule(app: "a", request("m", content(category: "message"), nil))
    _ = center.takeEffects()
    return (center, clock)
  }

  private func deleteAction(_ center: Center) throws -> RespondResult {
    try center.respond(app: "a", identifier: "m", actionIdentifier: "delete", userText: nil, authenticated: false)
  }

  func testReceiveCarriesTheDeadlineThirtySecondsAhead() throws {
    let (center, _) = try deliveredMessage()
    _ = try center.advanceClock(seconds: 7)
    let r = try deleteAction(center)
    XCTAssertTrue(r.delivered)
    XCTAssertFalse(r.queued)
    let sent = callbacks(to: 1, center.takeEffects())
    XCTAssertEqual(sent.count, 1)
    guard case .receive(let response, let deadline) = sent.first else { return XCTFail("\(sent)") }
    XCTAssertEqual(response.actionIdentifier, "delete")
    XCTAssertEqual(deadline, startPlus(37))
    XCTAssertEqual(center.agenda.count, 1)
    XCTAssertEqual(center.agenda.nextDate, startPlus(37))
    XCTAssertEqual(center.openResponses[r.responseId]?.deadline, startPlus(37))
  }

  func testForegroundActionHasNoDeadline() throws {
    let (center, _) = try deliveredMessage()
    _ = try center.respond(app: "a", identifier: "m", actionIdentifier: "reply", userText: "x", authenticated: false)
    guard case .receive(_, let deadline)? = callbacks(to: 1, center.takeEffects()).first else { return XCTFail() }
    XCTAssertNil(deadline)
    XCTAssertTrue(center.agenda.isEmpty)
  }

  func testCompleteResponseRemovesTheAgendaEntry() throws {
    let (center, _) = try deliveredMessage()
    let r = try deleteAction(center)
    try center.completeResponse(app: "a", responseId: r.responseId)
    XCTAssertTrue(center.agenda.isEmpty)
    XCTAssertNil(center.openResponses[r.responseId])
    _ = try center.advanceClock(seconds: 60)
    XCTAssertFalse(eventKinds(center.takeEffects()).contains(.expired))
    assertThrows(.notFound(kind: "open response", identifier: r.responseId)) { () throws(UNError) in
      try center.completeResponse(app: "a", responseId: r.responseId)
    }
  }

  func testCompleteResponseOfAnotherAppIsNotFound() throws {
    let (center, _) = try deliveredMessage()
    let r = try deleteAction(center)
    assertThrows(.notFound(kind: "open response", identifier: r.responseId)) { () throws(UNError) in
      try center.completeResponse(app: "b", responseId: r.responseId)
    }
    XCTAssertEqual(center.agenda.count, 1)
  }

  func testUnsettledResponseExpiresExactlyAtTheDeadline() throws {
    let (center, _) = try deliveredMessage()
    let r = try deleteAction(center)
    _ = center.takeEffects()
    _ = try center.advanceClock(seconds: 29.999)
    XCTAssertEqual(eventKinds(center.takeEffects()), [])
    XCTAssertNotNil(center.openResponses[r.responseId])
    _ = try center.advanceClock(seconds: 0.001)
    let expired = events(center.takeEffects())
    XCTAssertEqual(expired.map(\.kind), [.expired])
    XCTAssertEqual(expired.first?["responseId"], .string(r.responseId))
    XCTAssertEqual(expired.first?.date, startPlus(30))
    XCTAssertTrue(center.agenda.isEmpty)
    XCTAssertNil(center.openResponses[r.responseId])
    assertThrows(.notFound(kind: "open response", identifier: r.responseId)) { () throws(UNError) in
      try center.completeResponse(app: "a", responseId: r.responseId)
    }
  }

  func testExpiryIsInDateOrderWithTriggers() throws {
    let (center, _) = try deliveredMessage()
    _ = try deleteAction(center)
    _ = try center.schedule(app: "a", request("before", content(), interval(29)))
    _ = try center.schedule(app: "a", request("after", content(), interval(31)))
    _ = center.takeEffects()
    _ = try center.advanceClock(seconds: 40)
    let order = events(center.takeEffects()).filter { $0.kind == .fired || $0.kind == .expired }
    XCTAssertEqual(order.map(\.kind), [.fired, .expired, .fired])
    XCTAssertEqual(order.map(\.date), [startPlus(29), startPlus(30), startPlus(31)])
  }

  func testQueuedResponseKeepsItsDeadline() throws {
    let (center, _) = try deliveredMessage(foregroundConnection: false)
    let r = try deleteAction(center)
    XCTAssertTrue(r.queued)
    XCTAssertFalse(r.delivered)
    _ = try center.advanceClock(seconds: 10)
    _ = center.takeEffects()
    XCTAssertEqual(center.attach(1, SessionInfo(role: .app, appId: "a")), 1)
    let sent = callbacks(to: 1, center.takeEffects())
    guard case .receive(let response, let deadline)? = sent.first else { return XCTFail("\(sent)") }
    XCTAssertEqual(response.responseId, r.responseId)
    XCTAssertEqual(deadline, startPlus(30), "the deadline counts from the response, not the hello")
    _ = try center.advanceClock(seconds: 20)
    XCTAssertEqual(eventKinds(center.takeEffects()), [.expired])
  }
}
