import XCTest

@testable import UNServer

/// Held output is the front of a connection's output: each mark says where one
/// iteration's part ends and which commit it waits for; a release takes the parts whose
/// commits are durable, and the marks left behind move to the new front.
final class HeldOutputTests: XCTestCase {
  func testNothingIsReadyBeforeItsCommit() {
    var held = HeldOutput()
    XCTAssertTrue(held.isEmpty)
    XCTAssertEqual(held.end, 0)
    held.hold(upTo: 10, batch: 3, callbacks: false)
    XCTAssertFalse(held.isEmpty)
    XCTAssertEqual(held.end, 10)
    XCTAssertEqual(held.ready(upTo: 2).count, 0)
    XCTAssertEqual(held.ready(upTo: 2).end, 0)
  }

  func testTheReadyPartsAreAPrefixAndSayWhetherTheyHoldCallbacks() {
    var held = HeldOutput()
    held.hold(upTo: 10, batch: 1, callbacks: false)
    held.hold(upTo: 25, batch: 2, callbacks: true)
    held.hold(upTo: 40, batch: 4, callbacks: false)
    let first = held.ready(upTo: 1)
    XCTAssertEqual(first.count, 1)
    XCTAssertEqual(first.end, 10)
    XCTAssertFalse(first.callbacks)
    let two = held.ready(upTo: 3)
    XCTAssertEqual(two.count, 2)
    XCTAssertEqual(two.end, 25)
    XCTAssertTrue(two.callbacks)
    let all = held.ready(upTo: 9)
    XCTAssertEqual(all.count, 3)
    XCTAssertEqual(all.end, 40)
  }

  func testTheMarksLeftMoveToTheNewFront() {
    var held = HeldOutput()
    held.hold(upTo: 10, batch: 1, callbacks: true)
    held.hold(upTo: 25, batch: 2, callbacks: false)
    held.hold(upTo: 40, batch: 2, callbacks: false)
    let ready = held.ready(upTo: 1)
    held.removeFirst(ready.count, end: ready.end)
    XCTAssertEqual(held.end, 30)
    let rest = held.ready(upTo: 2)
    XCTAssertEqual(rest.count, 2)
    XCTAssertEqual(rest.end, 30)
    XCTAssertFalse(rest.callbacks)
    held.removeFirst(rest.count, end: rest.end)
    XCTAssertTrue(held.isEmpty)
    XCTAssertEqual(held.end, 0)
  }

  func testRemoveAllForgetsEveryMark() {
    var held = HeldOutput()
    held.hold(upTo: 5, batch: 1, callbacks: false)
    held.removeAll()
    XCTAssertTrue(held.isEmpty)
    XCTAssertEqual(held.ready(upTo: 1).count, 0)
  }
}
