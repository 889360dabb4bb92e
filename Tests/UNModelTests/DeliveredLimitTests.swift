import UNModel
import XCTest

/// `--max-delivered`: an app's delivered list keeps the newest; the oldest go first, as
/// Notification Center drops its oldest entries.
final class DeliveredLimitTests: XCTestCase {
  private func delivered(_ id: String, sequence: UInt64) -> DeliveredNotification {
    DeliveredNotification(date: start, request: request(id), category: nil, sequence: sequence, late: false)
  }

  func testTrimRemovesTheOldestInDeliveryOrder() {
    var list = DeliveredList()
    for (i, id) in ["a", "b", "c", "d"].enumerated() { list[id] = delivered(id, sequence: UInt64(i + 1)) }
    XCTAssertEqual(list.trim(to: 2), ["a", "b"])
    XCTAssertEqual(Set(list.keys), ["c", "d"])
    XCTAssertEqual(list.trim(to: 2), [])
  }

  func testRemovedAndReplacedEntriesAreSkipped() {
    var list = DeliveredList()
    for (i, id) in ["a", "b", "c"].enumerated() { list[id] = delivered(id, sequence: UInt64(i + 1)) }
    list.removeValue(forKey: "a")
    list["b"] = delivered("b", sequence: 4)  // delivered again: now the newest
    list["d"] = delivered("d", sequence: 5)
    XCTAssertEqual(list.trim(to: 2), ["c"])
    XCTAssertEqual(Set(list.keys), ["b", "d"])
    XCTAssertEqual(list.trim(to: 1), ["b"])
  }

  func testEntriesStoredOutOfOrderAreTrimmedByDeliveryOrder() {
    var list = DeliveredList()
    for (id, sequence) in [("x", 30), ("y", 10), ("z", 20)] { list[id] = delivered(id, sequence: UInt64(sequence)) }
    XCTAssertEqual(list.trim(to: 1), ["y", "z"])
  }

  func testManyReplacementsStayBounded() {
    var list = DeliveredList()
    for i in 0..<50_000 { list["same-\(i % 3)"] = delivered("same-\(i % 3)", sequence: UInt64(i + 1)) }
    XCTAssertEqual(list.count, 3)
    XCTAssertEqual(list.trim(to: 1), ["same-2", "same-0"])
  }

  func testTheCenterKeepsTheNewestAndSaysWhatWentAndCountsIt() throws {
    let (center, _) = makeCenter { $0.maxDeliveredPerApp = 3 }
    center.changes.isEnabled = true
    for i in 1...5 { _ = try center.schedule(app: "a", request("n\(i)", content("N\(i)"))) }
    let listed = center.listDelivered(app: "a", after: nil, limit: nil).notifications.map(\.identifier)
    XCTAssertEqual(listed, ["n5", "n4", "n3"])
    XCTAssertEqual(center.deliveredDropped, 2)
    let removed = events(center.takeEffects()).filter { $0.kind == .removed }
    XCTAssertEqual(removed.count, 2)
    XCTAssertEqual(removed.map { $0["identifiers"] }, [.strings(["n1"]), .strings(["n2"])])
    XCTAssertEqual(removed.first?["reason"], .string("maxDelivered"))
    XCTAssertEqual(removed.first?["list"], .string("delivered"))
    let marked = center.takeChanges().delivered.filter { $0.app == "a" }.map(\.identifier)
    XCTAssertTrue(Set(marked).isSuperset(of: ["n1", "n2"]), "the removals are recorded for the store: \(marked)")
    // Another app's list is its own.
    _ = try center.schedule(app: "b", request("m1", content("M1")))
    XCTAssertEqual(center.listDelivered(app: "b", after: nil, limit: nil).notifications.count, 1)
  }
}
