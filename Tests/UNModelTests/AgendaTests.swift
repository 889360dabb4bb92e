import UNModel
import XCTest

final class AgendaTests: XCTestCase {
  private func drain(_ agenda: inout Agenda, upTo limit: Instant) -> [Agenda.Item] {
    var out: [Agenda.Item] = []
    while let (_, item) = agenda.popDue(upTo: limit) { out.append(item) }
    return out
  }

  func testOrderedByDateThenInsertion() {
    var agenda = Agenda()
    XCTAssertTrue(agenda.isEmpty)
    XCTAssertNil(agenda.nextDate)
    agenda.add(.responseDeadline(responseId: "late"), at: startPlus(30))
    agenda.add(.serviceWillExpire(requestId: "first-at-10"), at: startPlus(10))
    agenda.add(.serviceTimeout(requestId: "second-at-10"), at: startPlus(10))
    agenda.add(.extensionResponseTimeout(responseId: "early"), at: startPlus(5))
    agenda.add(.responseDeadline(responseId: "third-at-10"), at: startPlus(10))
    XCTAssertEqual(agenda.count, 5)
    XCTAssertEqual(agenda.nextDate, startPlus(5))
    XCTAssertEqual(
      drain(&agenda, upTo: startPlus(100)),
      [
        .extensionResponseTimeout(responseId: "early"), .serviceWillExpire(requestId: "first-at-10"),
        .serviceTimeout(requestId: "second-at-10"), .responseDeadline(responseId: "third-at-10"),
        .responseDeadline(responseId: "late"),
      ])
    XCTAssertTrue(agenda.isEmpty)
  }

  func testPopDueStopsAtTheLimitInclusive() {
    var agenda = Agenda()
    agenda.add(.responseDeadline(responseId: "a"), at: startPlus(10))
    agenda.add(.responseDeadline(responseId: "b"), at: startPlus(20))
    XCTAssertNil(agenda.popDue(upTo: startPlus(9)))
    let popped = agenda.popDue(upTo: startPlus(10))
    XCTAssertEqual(popped?.0, startPlus(10))
    XCTAssertEqual(popped?.1, .responseDeadline(responseId: "a"))
    XCTAssertNil(agenda.popDue(upTo: startPlus(19)))
    XCTAssertEqual(agenda.count, 1)
    XCTAssertEqual(agenda.nextDate, startPlus(20))
  }

  func testRemove() {
    var agenda = Agenda()
    agenda.add(.responseDeadline(responseId: "a"), at: startPlus(10))
    agenda.add(.serviceWillExpire(requestId: "a"), at: startPlus(10))
    agenda.add(.responseDeadline(responseId: "b"), at: startPlus(5))
    agenda.remove(.responseDeadline(responseId: "a"))
    XCTAssertEqual(agenda.count, 2)
    agenda.remove(.responseDeadline(responseId: "missing"))
    XCTAssertEqual(agenda.count, 2)
    XCTAssertEqual(
      drain(&agenda, upTo: startPlus(10)),
      [.responseDeadline(responseId: "b"), .serviceWillExpire(requestId: "a")])
  }

  func testAnItemAddedLaterAtAnEarlierDateComesFirst() {
    var agenda = Agenda()
    agenda.add(.responseDeadline(responseId: "x"), at: startPlus(10))
    _ = agenda.popDue(upTo: startPlus(10))
    agenda.add(.responseDeadline(responseId: "y"), at: startPlus(50))
    agenda.add(.responseDeadline(responseId: "z"), at: startPlus(40))
    XCTAssertEqual(agenda.nextDate, startPlus(40))
    XCTAssertEqual(drain(&agenda, upTo: startPlus(50)).count, 2)
  }
}
