import TestSupport
import XCTest

@testable import UNModel

/// Events kept without a fields array read like those with one; the history finds each
/// app's ring again after other apps' events and after an app is forgotten.
final class EventHistoryTests: XCTestCase {
  func testCompactEventsEqualTheirFieldListForms() {
    let next = start.adding(milliseconds: 1000)
    let compact = Event(.scheduled, app: "a", date: start, identifier: "x", nextTriggerDate: next)
    let listed = Event(
      .scheduled, app: "a", date: start, [("identifier", .string("x")), ("nextTriggerDate", .date(next))])
    XCTAssertEqual(compact, listed)
    XCTAssertEqual(compact.fields.map(\.0), ["identifier", "nextTriggerDate"])
    XCTAssertEqual(compact["identifier"], .string("x"))
    XCTAssertEqual(compact["nextTriggerDate"], .date(next))
    XCTAssertNil(compact["reason"])

    let bare = Event(.fired, app: "a", date: start, identifier: "y")
    XCTAssertEqual(bare, Event(.fired, app: "a", date: start, [("identifier", .string("y"))]))
    XCTAssertEqual(bare.fields.map(\.0), ["identifier"])
    XCTAssertNil(bare["nextTriggerDate"])
    XCTAssertNotEqual(bare, Event(.fired, app: "a", date: start, [("identifier", .string("z"))]))

    var changed = compact
    changed.fields.append(("late", .bool(true)))
    XCTAssertEqual(changed["late"], .bool(true))
    XCTAssertEqual(changed["identifier"], .string("x"))
  }

  func testRingsFollowTheirAppsAcrossForgetAndReuse() {
    var h = EventHistory(perApp: 2)
    var evicted: [UInt64?] = []
    func record(_ app: String, _ id: String) {
      var pushedOut: UInt64?
      _ = h.record(Event(.fired, app: app, date: start, identifier: id), evicted: &pushedOut)
      evicted.append(pushedOut)
    }
    record("a", "1")
    record("b", "2")
    record("a", "3")
    record("a", "4")
    XCTAssertEqual(h.events(app: "a", since: 0).map(\.sequence), [3, 4], "bounded to 2 per app")
    XCTAssertEqual(evicted, [nil, nil, nil, 1], "the fourth pushed out a's first")
    XCTAssertEqual(h.events(of: "a").map(\.sequence), [3, 4])
    h.forget(app: "a")
    // "c" takes the forgotten ring's place; "a" starts again empty.
    record("c", "5")
    record("a", "6")
    record("c", "7")
    XCTAssertEqual(h.events(app: "a", since: 0).map(\.sequence), [6])
    XCTAssertEqual(h.events(app: "b", since: 0).map(\.sequence), [2])
    XCTAssertEqual(h.events(app: "c", since: 0).map(\.sequence), [5, 7])
    XCTAssertEqual(h.events(app: nil, since: 0).map(\.sequence), [2, 5, 6, 7])
    h.forget(app: "c")
    h.forget(app: "c")
    XCTAssertEqual(h.events(app: nil, since: 0).map(\.sequence), [2, 6])
  }

  func testTheCategoryWarningFollowsRegistration() throws {
    let (center, _) = makeCenter()
    let first = try center.schedule(app: "a", request("r1", content(category: "Message"), interval(5)))
    XCTAssertEqual(first.warnings, ["category 'Message' is not registered"])
    _ = try center.registerCategories(app: "a", [messageCategory])
    let second = try center.schedule(app: "a", request("r2", content(category: "Message"), interval(5)))
    XCTAssertEqual(second.warnings, ["category 'Message' is not registered; did you mean 'message'?"])
    let third = try center.schedule(app: "a", request("r3", content(category: "message"), interval(5)))
    XCTAssertEqual(third.warnings, [])
    // The same name spelled with other bytes is quoted as spelled.
    let nfd = "Cafe\u{301}"
    _ = try center.schedule(app: "a", request("r4", content(category: "Caf\u{E9}"), interval(5)))
    let fifth = try center.schedule(app: "a", request("r5", content(category: nfd), interval(5)))
    XCTAssertEqual(fifth.warnings.first.map { Array($0.utf8) }, Array("category '\(nfd)' is not registered".utf8))
    center.app("a").categories = []
    let sixth = try center.schedule(app: "a", request("r6", content(category: "message"), interval(5)))
    XCTAssertEqual(sixth.warnings, ["category 'message' is not registered"])
  }
}
