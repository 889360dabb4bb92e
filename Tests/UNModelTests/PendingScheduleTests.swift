import TestSupport
import XCTest

@testable import UNModel

/// The pending schedule against a reference model: a dictionary keyed by the
/// identifier's bytes, listed by sorting on (date, identifier) with `String` order.
final class PendingScheduleTests: XCTestCase {
  /// ASCII and non-ASCII identifiers (no two canonically equivalent), many of them
  /// prefixes of others; dates drawn from a few values, so ties are common.
  private let pool: [String] =
    (0..<60).map { "r\($0)" } + ["a", "ab", "abc", "B", "Z", "z", "é", "e", "ü-1", "日本", "Ω", "a\u{0}", "~", "ä"]

  private func randomEntry(_ id: String, _ step: Int, _ rng: inout SeededGenerator) -> PendingRequest {
    var c = content(String(repeating: "t", count: Int.random(in: 0..<40, using: &rng)))
    if Bool.random(using: &rng) { c.subtitle = "s\(step)" }
    c.userInfo = JSONText(bytes: Array("{\"n\":\(step)}".utf8))
    return PendingRequest(
      request: request(id, c, interval(60, repeats: Bool.random(using: &rng))), anchor: start,
      nextDate: Instant(milliseconds: Int64.random(in: 0..<6, using: &rng)), addedSequence: UInt64(step))
  }

  private func expectedOrder(_ model: [String: PendingRequest]) -> [PendingRequest] {
    model.values.sorted { ($0.nextDate, $0.identifier) < ($1.nextDate, $1.identifier) }
  }

  func testRandomOperationsMatchAReferenceModel() {
    var rng = SeededGenerator(seed: 42)
    var schedule = PendingSchedule()
    var model: [String: PendingRequest] = [:]
    for step in 0..<6000 {
      let id = pool.randomElement(using: &rng)!
      switch Int.random(in: 0..<10, using: &rng) {
      case 0..<5:
        let entry = randomEntry(id, step, &rng)
        XCTAssertEqual(schedule.upsert(entry), model[id])
        model[id] = entry
      case 5:
        let date = Instant(milliseconds: Int64.random(in: 0..<6, using: &rng))
        XCTAssertEqual(schedule.reschedule(id, to: date), model[id] != nil)
        model[id]?.nextDate = date
      case 6:
        XCTAssertEqual(schedule.discard(id), model.removeValue(forKey: id) != nil)
      case 7:
        XCTAssertEqual(schedule.remove(id), model.removeValue(forKey: id))
      default:
        XCTAssertEqual(schedule[id], model[id])
        XCTAssertEqual(schedule.contains(id), model[id] != nil)
      }
      XCTAssertEqual(schedule.count, model.count)
      XCTAssertEqual(
        schedule.first, model.values.min { ($0.nextDate, $0.identifier) < ($1.nextDate, $1.identifier) },
        "step \(step)")
    }
    let expected = expectedOrder(model)
    XCTAssertEqual(schedule.ordered(after: nil, limit: .max).entries, expected)
    XCTAssertEqual(Set(schedule.unordered.map(\.identifier)), Set(model.keys))
    // Pages after every cursor.
    for (k, e) in expected.enumerated() {
      let page = schedule.ordered(after: (e.nextDate, e.identifier), limit: 3)
      XCTAssertEqual(page.entries, Array(expected[(k + 1)...].prefix(3)))
      XCTAssertEqual(page.more, expected.count - k - 1 > 3)
    }
  }

  func testOrderIsStringOrderAcrossASCIIAndOtherIdentifiers() {
    var schedule = PendingSchedule()
    let ids = ["b", "a", "é", "e", "Z", "日本", "ab", "a\u{0}", "éa", "~"]
    for id in ids {
      schedule.upsert(PendingRequest(request: request(id), anchor: start, nextDate: start, addedSequence: 0))
    }
    XCTAssertEqual(schedule.ordered(after: nil, limit: .max).entries.map(\.identifier), ids.sorted())
  }

  func testIdentifiersDifferingOnlyInNormalizationAreDistinct() {
    var schedule = PendingSchedule()
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    schedule.upsert(PendingRequest(request: request(composed), anchor: start, nextDate: start, addedSequence: 0))
    schedule.upsert(PendingRequest(request: request(decomposed), anchor: start, nextDate: start, addedSequence: 1))
    XCTAssertEqual(schedule.count, 2)
    XCTAssertEqual(schedule[composed]?.addedSequence, 0)
    XCTAssertEqual(schedule[decomposed]?.addedSequence, 1)
    XCTAssertTrue(schedule.discard(composed))
    XCTAssertEqual(schedule[decomposed].map { Array($0.identifier.utf8) }, Array(decomposed.utf8))
  }

  func testACopyIsIndependentOfItsOriginal() {
    var rng = SeededGenerator(seed: 1)
    var original = PendingSchedule()
    for (i, id) in pool.prefix(20).enumerated() { original.upsert(randomEntry(id, i, &rng)) }
    let before = original.ordered(after: nil, limit: .max).entries
    var copy = original
    copy.upsert(randomEntry("r0", 100, &rng))
    copy.reschedule("r1", to: Instant(milliseconds: -1))
    copy.discard("r2")
    copy.upsert(randomEntry("new", 101, &rng))
    XCTAssertEqual(original.ordered(after: nil, limit: .max).entries, before)
    XCTAssertEqual(original.first, before.first)
    XCTAssertEqual(copy.count, 20)
    XCTAssertEqual(copy.first?.identifier, "r1")
    // And the original can still change on its own.
    original.discard("r1")
    XCTAssertEqual(copy.first?.identifier, "r1")
    XCTAssertEqual(original.count, 19)
  }

  func testRemoveAllEmptiesTheSchedule() {
    var schedule = PendingSchedule()
    for id in ["x", "y"] {
      schedule.upsert(PendingRequest(request: request(id), anchor: start, nextDate: start, addedSequence: 0))
    }
    XCTAssertEqual(schedule.removeAll(), 2)
    XCTAssertTrue(schedule.isEmpty)
    XCTAssertNil(schedule.first)
    XCTAssertNil(schedule["x"])
    schedule.upsert(PendingRequest(request: request("x"), anchor: start, nextDate: start, addedSequence: 0))
    XCTAssertEqual(schedule.count, 1)
  }
}
