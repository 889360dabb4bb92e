import TestSupport
import UNModel
import XCTest

final class DeliveryTests: XCTestCase {
  func testAdvanceFiresInDateOrderWithTheClockAtEachFireTime() throws {
    let (center, clock) = makeCenter()
    _ = try center.schedule(app: "b", request("late", content(), interval(3)))
    _ = try center.schedule(app: "a", request("early", content(), interval(1)))
    _ = try center.schedule(app: "a", request("never", content(), interval(100)))
    let advance = try center.advanceClock(seconds: 5)
    let (now, fired) = (advance.now, advance.fired)
    XCTAssertEqual(fired, ["early", "late"])
    XCTAssertEqual(now.rfc3339, "2026-01-01T08:00:05.000Z")
    XCTAssertEqual(clock.now, now)
    XCTAssertEqual(center.app("a").delivered["early"]?.date.rfc3339, "2026-01-01T08:00:01.000Z")
    XCTAssertEqual(center.app("b").delivered["late"]?.date.rfc3339, "2026-01-01T08:00:03.000Z")
    XCTAssertEqual(center.app("a").pending.count, 1, "a one-shot leaves the pending list")
  }

  func testRepeatingTriggerFiresOncePerSlotWithoutDrift() throws {
    let (center, _) = makeCenter()
    _ = try center.schedule(app: "a", request("tick", content(), interval(60, repeats: true)))
    let fired = try center.advanceClock(seconds: 300).fired
    XCTAssertEqual(fired, Array(repeating: "tick", count: 5))
    XCTAssertEqual(center.app("a").pending["tick"]?.nextDate.rfc3339, "2026-01-01T08:06:00.000Z")
    _ = try center.advanceClock(seconds: 59.999)
    XCTAssertEqual(center.app("a").pending["tick"]?.nextDate.rfc3339, "2026-01-01T08:06:00.000Z")
    XCTAssertEqual(try center.advanceClock(seconds: 0.001).fired, ["tick"])
  }

  func testAdvanceNeedsTheManualClock() {
    let center = Center(clock: SystemClock())
    assertThrows(.clockNotManual) { () throws(UNError) in try center.advanceClock(seconds: 1) }
  }

  func testForegroundAppGetsPresentPerConnectionWithItsSurface() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    center.attach(1, SessionInfo(role: .app, appId: "a", presentation: [.banner, .sound], surface: .phone))
    center.attach(2, SessionInfo(role: .app, appId: "a", presentation: [.list], surface: .watch))
    center.attach(3, SessionInfo(role: .user, appId: "a"))
    _ = try center.schedule(app: "a", request("m", content(category: "message"), interval(5)))
    _ = try center.advanceClock(seconds: 5)
    let sent = callbacks(center.takeEffects())
    XCTAssertEqual(sent.map(\.0), [1, 2])
    guard case .present(let n, let actions, let presentation) = sent[0].1 else { return XCTFail() }
    XCTAssertEqual(n.identifier, "m")
    XCTAssertEqual(actions.map(\.identifier), ["reply", "delete"])
    XCTAssertEqual(presentation, [.banner, .sound])
    guard case .present(_, let watchActions, _) = sent[1].1 else { return XCTFail() }
    XCTAssertEqual(watchActions, [])
    XCTAssertNotNil(center.app("a").delivered["m"])
  }

  func testPresentationWithoutListOrBannerIsNotKept() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a", presentation: [.sound]))
    _ = try center.schedule(app: "a", request("m", content(), nil))
    XCTAssertEqual(callbacks(center.takeEffects()).count, 1)
    XCTAssertNil(center.app("a").delivered["m"])
  }

  func testBackgroundDeliveryGoesToTheListWithoutCallbacks() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"), foreground: false)
    _ = try center.schedule(app: "a", request("m", content(badge: 5), interval(1)))
    _ = try center.advanceClock(seconds: 1)
    XCTAssertTrue(callbacks(center.takeEffects()).isEmpty)
    XCTAssertNotNil(center.app("a").delivered["m"])
    XCTAssertEqual(center.app("a").badge, 5)
    center.setForeground(app: "a", true)
    _ = try center.schedule(app: "a", request("n", content(), nil))
    XCTAssertEqual(callbacks(center.takeEffects()).count, 1)
  }

  func testNoConnectionMeansBackground() throws {
    let (center, _) = makeCenter()
    XCTAssertFalse(center.isForeground("a"))
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    XCTAssertTrue(center.isForeground("a"))
    center.detach(1)
    XCTAssertFalse(center.isForeground("a"))
  }

  func testSameIdentifierReplacesTheDeliveredNotification() throws {
    let (center, _) = makeCenter()
    _ = try center.schedule(app: "a", request("m", content("one"), nil))
    _ = try center.schedule(app: "a", request("m", content("two"), nil))
    XCTAssertEqual(center.app("a").delivered.count, 1)
    XCTAssertEqual(center.app("a").delivered["m"]?.request.content.title, "two")
  }

  func testListDeliveredNewestFirstWithPagination() throws {
    let (center, _) = makeCenter()
    for i in 1...5 { _ = try center.schedule(app: "a", request("n\(i)", content(), interval(Double(i)))) }
    _ = try center.advanceClock(seconds: 5)
    let first = center.listDelivered(app: "a", after: nil, limit: 2)
    XCTAssertEqual(first.notifications.map(\.identifier), ["n5", "n4"])
    XCTAssertTrue(first.more)
    let last = first.notifications.last!
    let rest = center.listDelivered(app: "a", after: (last.date, last.sequence), limit: 10)
    XCTAssertEqual(rest.notifications.map(\.identifier), ["n3", "n2", "n1"])
    XCTAssertFalse(rest.more)
    XCTAssertEqual(center.removeDelivered(app: "a", identifiers: ["n1", "x"]), 1)
    XCTAssertEqual(center.removeDelivered(app: "a", identifiers: nil), 4)
  }

  func testSurfacesShowActionsByRule6() {
    var car = messageCategory
    XCTAssertEqual(Surface.carPlay.actions(for: car), [], "carPlay needs allowInCarPlay")
    car.options.append(.allowInCarPlay)
    car.actions += [Action(identifier: "x", title: "X"), Action(identifier: "y", title: "Y")]
    XCTAssertEqual(Surface.carPlay.actions(for: car).map(\.identifier), ["delete", "x"])
    var many = messageCategory
    many.actions = (0..<12).map { Action(identifier: "a\($0)", title: "A") }
    XCTAssertEqual(Surface.phone.actions(for: many).count, 10)
    XCTAssertEqual(Surface.phone.actions(for: nil), [])
    XCTAssertEqual(Surface.watch.actions(for: messageCategory), [])
  }
}

final class GroupSummaryTests: XCTestCase {
  private func deliver(_ center: Center, _ id: String, thread: String, argument: String, count: Int = 1) throws {
    var c = content(thread: thread)
    c.summaryArgument = argument
    c.summaryArgumentCount = count
    _ = try center.schedule(app: "a", request(id, c, interval(1)))
    _ = try center.advanceClock(seconds: 1)
  }

  func testItalianSeedAliceAndMeAlternating() throws {
    let (center, _) = makeCenter()
    for i in 0..<6 { try deliver(center, "m\(i)", thread: "message-Alice", argument: i % 2 == 0 ? "Alice" : "me") }
    let groups = center.deliveredGroups(app: "a")
    XCTAssertEqual(groups.count, 1)
    XCTAssertEqual(groups[0].summary, "5 more notifications from Alice and me")
    XCTAssertEqual(groups[0].notifications.first?.identifier, "m5")
  }

  func testGroupsMostRecentFirstAndAppGroup() throws {
    let (center, _) = makeCenter()
    try deliver(center, "a1", thread: "alice", argument: "Alice")
    try deliver(center, "r1", thread: "", argument: "")
    try deliver(center, "b1", thread: "bob", argument: "Bob")
    try deliver(center, "b2", thread: "bob", argument: "Bob")
    let groups = center.deliveredGroups(app: "a")
    XCTAssertEqual(groups.map(\.threadIdentifier), ["bob", "", "alice"])
    XCTAssertEqual(groups.map(\.count), [2, 1, 1])
    XCTAssertEqual(groups[0].summary, "1 more notification from Bob")
    XCTAssertEqual(groups[1].summary, "")
  }

  func testSummaryArgumentCountAndThreeArguments() throws {
    let (center, _) = makeCenter()
    try deliver(center, "1", thread: "t", argument: "A", count: 3)
    try deliver(center, "2", thread: "t", argument: "B")
    try deliver(center, "3", thread: "t", argument: "C", count: 2)
    XCTAssertEqual(center.deliveredGroups(app: "a")[0].summary, "4 more notifications from A, B and C")
  }

  func testCategorySummaryFormatReplacesTheWording() throws {
    let (center, _) = makeCenter()
    var cat = Category(identifier: "msg")
    cat.categorySummaryFormat = "%u more messages from %@"
    _ = try center.registerCategories(app: "a", [cat])
    for i in 0..<3 {
      var c = content(category: "msg", thread: "t")
      c.summaryArgument = "Alice"
      _ = try center.schedule(app: "a", request("m\(i)", c, nil))
    }
    XCTAssertEqual(center.deliveredGroups(app: "a")[0].summary, "2 more messages from Alice")
    XCTAssertEqual(GroupSummary.apply("%2$@: %1$u (100%%)", count: 4, arguments: "X"), "X: 4 (100%)")
  }
}

final class AdvanceBoundTests: XCTestCase {
  func testAnAdvanceThatWouldFireTooOftenIsRefusedBeforeAnythingHappens() throws {
    let (center, clock) = makeCenter { $0.maxFiringsPerAdvance = 100 }
    _ = try center.schedule(app: "a", request("tick", content(), interval(60, repeats: true)))
    assertThrows(.limitExceeded(limit: "maxFiringsPerAdvance", value: 100)) { () throws(UNError) in
      try center.advanceClock(seconds: 101 * 60)
    }
    XCTAssertEqual(clock.now, start, "nothing moved")
    XCTAssertEqual(center.app("a").delivered.count, 0)
    XCTAssertEqual(try center.advanceClock(seconds: 99 * 60).fired.count, 99)
  }
}
