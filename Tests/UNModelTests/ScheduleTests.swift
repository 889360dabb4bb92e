import TestSupport
import UNModel
import XCTest

final class ScheduleTests: XCTestCase {
  func testTimeIntervalValidationUsesApplesReasons() {
    assertThrows(.invalidTrigger("time interval must be greater than 0")) { () throws(UNError) in
      try TimeIntervalTrigger(seconds: 0, repeats: false)
    }
    assertThrows(.invalidTrigger("time interval must be greater than 0")) { () throws(UNError) in
      try TimeIntervalTrigger(seconds: -5, repeats: false)
    }
    assertThrows(.invalidTrigger("time interval must be at least 60 if repeating")) { () throws(UNError) in
      try TimeIntervalTrigger(seconds: 59.9, repeats: true)
    }
    XCTAssertNoThrow(try TimeIntervalTrigger(seconds: 60, repeats: true))
    XCTAssertNoThrow(try TimeIntervalTrigger(seconds: 0.001, repeats: false))
  }

  func testScheduleReportsNextDateAndReplacement() throws {
    let (center, _) = makeCenter()
    let first = try center.schedule(app: "a", request("r", content(), interval(5)))
    XCTAssertEqual(first.scheduled, true)
    XCTAssertEqual(first.replaced, false)
    XCTAssertEqual(first.nextTriggerDate?.rfc3339, "2026-01-01T08:00:05.000Z")
    let second = try center.schedule(app: "a", request("r", content("new"), interval(10)))
    XCTAssertEqual(second.replaced, true)
    XCTAssertEqual(center.app("a").pending.count, 1)
    XCTAssertEqual(center.app("a").pending["r"]?.request.content.title, "new")
    XCTAssertEqual(center.app("a").pending["r"]?.nextDate.rfc3339, "2026-01-01T08:00:10.000Z")
  }

  func testBorrowedTextsAreStoredAsTheirStringsWouldBe() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    var plain = request("r", content("Title", category: "mesage", thread: "t", badge: 2), interval(5))
    plain.content.body = "a body longer than fifteen bytes"
    plain.content.userInfo = JSONText(bytes: Array(#"{"seq":1}"#.utf8))
    let expected = try center.schedule(app: "a", plain)
    let stored = try XCTUnwrap(center.app("a").pending["r"])
    // The same texts borrowed from one buffer (the body left to the content, as an
    // escaped string is), scheduled again as a replacement.
    let bytes = Array(#"Titlemesaget{"seq":1}"#.utf8)
    let again = try bytes.withUnsafeBufferPointer { b in
      var borrowed = BorrowedRequest(identifier: "r", content: plain.content, trigger: plain.trigger)
      borrowed.content.title = ""
      borrowed.content.categoryIdentifier = ""
      borrowed.content.threadIdentifier = ""
      borrowed.content.userInfo = .emptyObject
      borrowed.borrow(.title, UnsafeBufferPointer(rebasing: b[0..<5]))
      borrowed.borrow(.categoryIdentifier, UnsafeBufferPointer(rebasing: b[5..<11]))
      borrowed.borrow(.threadIdentifier, UnsafeBufferPointer(rebasing: b[11..<12]))
      borrowed.borrow(.userInfo, UnsafeBufferPointer(rebasing: b[12...]))
      XCTAssertEqual(borrowed.request, plain)
      return try center.schedule(app: "a", borrowed)
    }
    XCTAssertEqual(again.warnings, expected.warnings)
    XCTAssertEqual(again.warnings, ["category 'mesage' is not registered; did you mean 'message'?"])
    XCTAssertTrue(again.replaced)
    XCTAssertEqual(center.app("a").pending["r"]?.request, stored.request)
  }

  func testUnknownCategoryWarnsWithNearMiss() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    let caseMiss = try center.schedule(app: "a", request("1", content(category: "Message"), interval(5)))
    XCTAssertEqual(caseMiss.warnings, ["category 'Message' is not registered; did you mean 'message'?"])
    let typo = try center.schedule(app: "a", request("2", content(category: "mesage"), interval(5)))
    XCTAssertEqual(typo.warnings, ["category 'mesage' is not registered; did you mean 'message'?"])
    let far = try center.schedule(app: "a", request("3", content(category: "invoice"), interval(5)))
    XCTAssertEqual(far.warnings, ["category 'invoice' is not registered"])
    let known = try center.schedule(app: "a", request("4", content(category: "message"), interval(5)))
    XCTAssertEqual(known.warnings, [])
    XCTAssertTrue(caseMiss.scheduled, "an unknown category is accepted, as iOS does")
  }

  func testListPendingOrdersByDateThenIdentifierAndPaginates() throws {
    let (center, _) = makeCenter()
    for (id, s) in [("b", 10.0), ("a", 10.0), ("c", 5.0), ("d", 20.0), ("e", 1.0)] {
      _ = try center.schedule(app: "a", request(id, content(), interval(s)))
    }
    let all = center.listPending(app: "a", after: nil, limit: nil)
    XCTAssertEqual(all.requests.map(\.identifier), ["e", "c", "a", "b", "d"])
    XCTAssertNil(all.next)
    var page = center.listPending(app: "a", after: nil, limit: 2)
    var seen = page.requests.map(\.identifier)
    while let next = page.next {
      page = center.listPending(app: "a", after: next, limit: 2)
      seen += page.requests.map(\.identifier)
    }
    XCTAssertEqual(seen, ["e", "c", "a", "b", "d"])
  }

  func testHeapStaysOrderedUnderRandomUpsertsAndRemovals() throws {
    var schedule = PendingSchedule()
    var model: [String: Int64] = [:]
    var rng = SystemRandomNumberGenerator()
    for step in 0..<3000 {
      let id = "r\(Int.random(in: 0..<300, using: &rng))"
      if step % 4 == 3 {
        XCTAssertEqual(schedule.remove(id) != nil, model.removeValue(forKey: id) != nil)
      } else {
        let ms = Int64.random(in: 0..<50, using: &rng)
        let entry = PendingRequest(
          request: request(id), anchor: start, nextDate: Instant(milliseconds: ms), addedSequence: UInt64(step))
        schedule.upsert(entry)
        model[id] = ms
      }
    }
    let expected = model.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
    XCTAssertEqual(schedule.ordered(after: nil, limit: .max).entries.map(\.identifier), expected)
    XCTAssertEqual(schedule.first?.identifier, expected.first)
    XCTAssertEqual(schedule.count, expected.count)
  }

  func testPendingQuotaAndRemoval() throws {
    let (center, _) = makeCenter { $0.maxPendingPerApp = 3 }
    for i in 0..<3 { _ = try center.schedule(app: "a", request("r\(i)", content(), interval(5))) }
    assertThrows(.limitExceeded(limit: "maxPendingPerApp", value: 3)) { () throws(UNError) in
      try center.schedule(app: "a", request("r9", content(), interval(5)))
    }
    XCTAssertNoThrow(try center.schedule(app: "a", request("r1", content(), interval(7))), "replacing is not growing")
    XCTAssertEqual(center.removePending(app: "a", identifiers: ["r1", "nope"]), 1)
    XCTAssertEqual(center.removePending(app: "a", identifiers: nil), 2)
    XCTAssertEqual(center.app("a").pending.count, 0)
  }

  func testIOSLimitsKeepTheMostRecentlyAdded() throws {
    let (center, _) = makeCenter { $0.iosLimits = true }
    for i in 0..<70 { _ = try center.schedule(app: "a", request("r\(i)", content(), interval(Double(1000 - i)))) }
    let kept = Set(center.app("a").pending.unordered.map(\.identifier))
    XCTAssertEqual(kept.count, 64)
    XCTAssertEqual(kept, Set((6..<70).map { "r\($0)" }))
  }

  func testUnauthorizedAppsAreAcceptedButNotKept() throws {
    let (center, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    let result = try center.schedule(app: "a", request("r", content(), interval(5)))
    XCTAssertFalse(result.scheduled)
    XCTAssertEqual(result.warnings, ["not scheduled: the app's authorization is 'notDetermined'"])
    XCTAssertEqual(center.app("a").pending.count, 0)
  }

  func testContentRules() {
    let (center, _) = makeCenter()
    assertThrows(.invalidParams(field: "content.badge", problem: "badgeInputInvalid: must be >= 0, got -1")) {
      () throws(UNError) in try center.schedule(app: "a", request("r", content(badge: -1), interval(5)))
    }
    var c = content()
    c.summaryArgumentCount = 0
    assertThrows(.invalidParams(field: "content.summaryArgumentCount", problem: "must be an integer >= 1, got 0")) {
      () throws(UNError) in try center.schedule(app: "a", request("r", c, interval(5)))
    }
    assertThrows(.invalidParams(field: "identifier", problem: "must be a non-empty string")) {
      () throws(UNError) in try center.schedule(app: "a", request("", content(), interval(5)))
    }
  }
}
