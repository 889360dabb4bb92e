import XCTest

@testable import UNModel

/// The journal hands each batch over once, and keeps room for the next batch: taking
/// when nothing changed neither hands anything over nor loses that room.
final class ChangeJournalTests: XCTestCase {
  private func scheduled(_ n: Int) throws -> Center {
    let (center, _) = makeCenter()
    center.changes.isEnabled = true
    for i in 0..<n { _ = try center.schedule(app: "a", request("r\(i)", content("R\(i)"), interval(3600))) }
    return center
  }

  private func storedIdentifiers(_ changes: RecordedChanges) -> [String] {
    changes.pending.compactMap { change in
      if case .stored(let snapshot) = change { snapshot.view.identifier } else { nil }
    }
  }

  func testABatchIsHandedOverOnce() throws {
    let center = try scheduled(3)
    let first = center.takeChanges()
    XCTAssertEqual(storedIdentifiers(first), ["r0", "r1", "r2"])
    XCTAssertEqual(first.events.count, 3)
    XCTAssertTrue(center.takeChanges().pending.isEmpty)
  }

  func testTheNextBatchHasRoomForTheLastOneEvenAfterAnEmptyTake() throws {
    let center = try scheduled(40)
    XCTAssertEqual(center.takeChanges().pending.count, 40)
    XCTAssertTrue(center.takeChanges().isEmpty)
    XCTAssertGreaterThanOrEqual(center.changes.set.pending.capacity, 40)
    XCTAssertGreaterThanOrEqual(center.changes.set.events.capacity, 40)
  }

  func testTheRoomKeptIsBounded() throws {
    let center = try scheduled(ChangeJournal.maxRoom + 100)
    _ = center.takeChanges()
    XCTAssertLessThan(center.changes.set.pending.capacity, 2 * ChangeJournal.maxRoom)
  }

  func testWhatIsRecordedAfterATakeGoesToTheNextBatch() throws {
    let center = try scheduled(2)
    _ = center.takeChanges()
    _ = try center.schedule(app: "a", request("late", content("L"), interval(3600)))
    XCTAssertEqual(storedIdentifiers(center.takeChanges()), ["late"])
  }
}
