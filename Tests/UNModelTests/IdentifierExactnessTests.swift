import UNModel
import XCTest

/// Identifiers are compared literally, as their UTF-8 bytes (as `NSString isEqual:`
/// compares code units): a precomposed `é` (NFC) and `e` + U+0301 (NFD) name two things,
/// although Swift's `String ==` calls them equal.
final class IdentifierExactnessTests: XCTestCase {
  let nfc = "com.caf\u{E9}"
  let nfd = "com.cafe\u{301}"

  func testTheTwoSpellingsAreCanonicallyEqualStringsWithDifferentBytes() {
    // The premise of every test here: `==` would merge them.
    XCTAssertEqual(nfc, nfd)
    XCTAssertNotEqual(Array(nfc.utf8), Array(nfd.utf8))
  }

  func testExactKeyComparesAndHashesBytes() {
    XCTAssertNotEqual(ExactKey(nfc), ExactKey(nfd))
    XCTAssertEqual(Set([ExactKey(nfc), ExactKey(nfd), ExactKey(nfc)]).count, 2)
    XCTAssertEqual(ExactKey("a\u{0}b"), ExactKey("a\u{0}b"))
    XCTAssertNotEqual(ExactKey("a\u{0}b"), ExactKey("a"))
    XCTAssertFalse(nfc.exactlyEquals(nfd))
    XCTAssertTrue(nfc.exactlyEquals("com.caf\u{E9}"))
    // Byte order, as SQLite's BINARY collation sorts them.
    XCTAssertLessThan(ExactKey("a"), ExactKey("a\u{0}"))
    XCTAssertLessThan(ExactKey(nfd), ExactKey(nfc))
  }

  func testNFCAndNFDAppIdsAreTwoAppsWithTheirOwnOwnersAndRequests() throws {
    let (center, _) = makeCenter()
    center.claim(app: nfc, uid: 1000)
    XCTAssertNil(center.owner(of: nfd), "the NFD app is not the NFC one")
    center.claim(app: nfd, uid: 1001)
    XCTAssertEqual(center.owner(of: nfc), 1000)
    XCTAssertEqual(center.owner(of: nfd), 1001)
    _ = try center.schedule(app: nfc, request("mine", content(), interval(60)))
    _ = try center.schedule(app: nfd, request("theirs", content(), interval(60)))
    XCTAssertEqual(center.app(nfc).pending.unordered.map(\.identifier), ["mine"])
    XCTAssertEqual(center.app(nfd).pending.unordered.map(\.identifier), ["theirs"])
    XCTAssertEqual(center.apps.count, 2)
    center.setForeground(app: nfd, false)
    XCTAssertTrue(center.app(nfc).wantsForeground)
    try center.setBadgeCount(app: nfc, 4)
    XCTAssertEqual(center.badgeCount(app: nfd), 0)
    center.reset(app: nfd)
    XCTAssertEqual(center.app(nfc).pending.count, 1, "a reset of one spelling leaves the other")
    XCTAssertEqual(center.owner(of: nfc), 1000)
  }

  /// Foundation reads a zone's name as a C string, so "UTC" + NUL + anything was UTC.
  func testATimeZoneWithANulIsRefused() {
    for zone in ["UTC\u{0}", "UTC\u{0}x", "Europe/Paris\u{0}"] {
      assertThrows(.invalidParams(field: "trigger.timeZone", problem: "an identifier must not contain U+0000")) {
        () throws(UNError) in
        try CalendarTrigger(dateMatching: .init(hour: 9), timeZone: zone, repeats: false)
      }
    }
    XCTAssertNoThrow(try CalendarTrigger(dateMatching: .init(hour: 9), timeZone: "UTC", repeats: false))
  }

  func testConnectionsAndEventsAreKeptPerSpelling() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: nfc))
    XCTAssertEqual(center.connections(of: nfc), [1])
    XCTAssertEqual(center.connections(of: nfd), [])
    XCTAssertFalse(center.isForeground(nfd))
    _ = try center.schedule(app: nfd, request("r", content(), interval(60)))
    XCTAssertEqual(center.history.events(of: nfc).count, 0)
    XCTAssertEqual(center.history.events(of: nfd).map(\.kind), [.scheduled])
    XCTAssertEqual(center.history.events(app: nfc, since: 0).count, 0)
  }

  func testCategoriesAndActionsInBothSpellingsAreDistinct() throws {
    let (center, _) = makeCenter()
    let both = [
      Category(
        identifier: "caf\u{E9}",
        actions: [Action(identifier: "ok\u{E9}", title: "1"), Action(identifier: "oke\u{301}", title: "2")]),
      Category(identifier: "cafe\u{301}"),
    ]
    XCTAssertEqual(try center.registerCategories(app: "a", both), 2)
    XCTAssertEqual(center.app("a").category("cafe\u{301}")?.actions.count, 0)
    XCTAssertEqual(center.app("a").category("caf\u{E9}")?.actions.count, 2)
    // Registered in one spelling only, the other is an unknown category.
    _ = try center.registerCategories(app: "b", [Category(identifier: "caf\u{E9}")])
    XCTAssertEqual(center.app("b").category("cafe\u{301}"), nil)
    let r = try center.schedule(app: "b", request("r", content(category: "cafe\u{301}"), interval(60)))
    XCTAssertEqual(r.warnings.count, 1, "\(r.warnings)")
    XCTAssertTrue(r.warnings.first?.contains("is not registered") ?? false, "\(r.warnings)")
  }

  func testAnActionIsFoundOnlyInItsOwnSpelling() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(
      app: "a",
      [Category(identifier: "m", actions: [Action(identifier: "ok\u{E9}", title: "OK", options: [.foreground])])])
    _ = try center.schedule(app: "a", request("n", content(category: "m"), nil))
    assertThrows(.actionUnavailable(action: "oke\u{301}", reason: "not offered by notification 'n'")) {
      () throws(UNError) in
      try center.respond(
        app: "a", identifier: "n", actionIdentifier: "oke\u{301}", userText: nil, authenticated: false)
    }
    XCTAssertNoThrow(
      try center.respond(app: "a", identifier: "n", actionIdentifier: "ok\u{E9}", userText: nil, authenticated: false))
  }

  func testDeliveredNotificationsAndThreadsInBothSpellingsAreDistinct() throws {
    let (center, _) = makeCenter()
    _ = try center.schedule(app: "a", request("caf\u{E9}", content(thread: "t\u{E9}"), nil))
    _ = try center.schedule(app: "a", request("cafe\u{301}", content(thread: "te\u{301}"), nil))
    XCTAssertEqual(center.app("a").delivered.count, 2)
    let groups = center.deliveredGroups(app: "a")
    XCTAssertEqual(groups.count, 2)
    XCTAssertEqual(Set(groups.map { Array($0.threadIdentifier.utf8) }).count, 2)
    XCTAssertEqual(center.removeDelivered(app: "a", identifiers: ["cafe\u{301}"]), 1)
    XCTAssertEqual(center.app("a").delivered.keys.map { Array($0.utf8) }, [Array("caf\u{E9}".utf8)])
  }

  func testTheJournalRecordsEachSpelling() throws {
    let (center, _) = makeCenter()
    center.changes.isEnabled = true
    center.claim(app: nfc, uid: 1)
    center.claim(app: nfd, uid: 2)
    let changes = center.takeChanges()
    XCTAssertEqual(changes.apps.count, 2)
  }

  func testAGroupSummaryCountsEachSpellingOfAnArgument() {
    func delivered(_ argument: String, _ sequence: UInt64) -> DeliveredNotification {
      var c = content()
      c.summaryArgument = argument
      return DeliveredNotification(
        date: start, request: request("n\(sequence)", c), category: nil, sequence: sequence, late: false)
    }
    let text = GroupSummary.text(for: [delivered("Jos\u{E9}", 3), delivered("Jose\u{301}", 2), delivered("x", 1)])
    XCTAssertEqual(
      Array(text.utf8), Array("2 more notifications from x, Jose\u{301} and Jos\u{E9}".utf8), text)
  }
}
