import TestSupport
import XCTest

@testable import UNModel

/// The identifier index of a pending schedule, against a reference dictionary; hashes
/// are passed in, so collisions (same table, same tag, same home slot) are forced.
final class PendingIndexTests: XCTestCase {
  private func record(_ id: String) -> PendingRecord {
    PendingRecord.make(request(id), anchor: start, nextDate: start, addedSequence: 0)
  }

  private func find(_ index: borrowing PendingIndex, _ id: String, _ hash: Int) -> PendingRecord? {
    withUTF8Bytes(id) { index.find($0, hash: hash) }
  }

  /// A tiny hash space: most keys share a table, many a tag and a home slot.
  private func weakHash(_ id: String) -> Int {
    let h = id.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xffff }
    return (h % 3) | ((h % 5) << 33) | ((h % 2) << 40)
  }

  func testRandomOperationsMatchADictionaryUnderHeavyCollisions() {
    var rng = SeededGenerator(seed: 7)
    var index = PendingIndex()
    var model: [String: PendingRecord] = [:]
    for step in 0..<20_000 {
      let id = "id-\(Int.random(in: 0..<400, using: &rng))"
      let hash = weakHash(id)
      switch Int.random(in: 0..<3, using: &rng) {
      case 0:
        let r = record(id)
        if model[id] == nil {
          index.insert(r, hash: hash)
        } else {
          withUTF8Bytes(id) { index.replace($0, hash: hash, with: r) }
        }
        model[id] = r
      case 1:
        let removed = withUTF8Bytes(id) { index.remove($0, hash: hash) }
        XCTAssertTrue(removed === model.removeValue(forKey: id), "step \(step)")
      default:
        XCTAssertTrue(find(index, id, hash) === model[id], "step \(step)")
      }
      XCTAssertEqual(index.count, model.count)
    }
    for i in 0..<400 {
      let id = "id-\(i)"
      XCTAssertTrue(find(index, id, weakHash(id)) === model[id], id)
    }
  }

  func testGrowthKeepsEveryKeyWithRealHashes() {
    var index = PendingIndex()
    var records: [String: PendingRecord] = [:]
    for i in 0..<50_000 {
      let id = "p-\(i)"
      let r = record(id)
      records[id] = r
      index.insert(r, hash: PendingSchedule.hash(id))
    }
    XCTAssertEqual(index.count, 50_000)
    for (id, r) in records { XCTAssertTrue(find(index, id, PendingSchedule.hash(id)) === r, id) }
    for i in stride(from: 0, to: 50_000, by: 2) {
      let id = "p-\(i)"
      XCTAssertNotNil(withUTF8Bytes(id) { index.remove($0, hash: PendingSchedule.hash(id)) })
    }
    XCTAssertEqual(index.count, 25_000)
    for i in 0..<50_000 {
      let id = "p-\(i)"
      XCTAssertEqual(find(index, id, PendingSchedule.hash(id)) != nil, i % 2 == 1, id)
    }
  }

  func testKeysAreComparedByteForByte() {
    var index = PendingIndex()
    // Equal hashes, different bytes: a prefix, and the same length.
    let ids = ["abc", "ab", "abd", "abc\u{0}", ""]
    for id in ids { index.insert(record(id), hash: 42) }
    for id in ids { XCTAssertEqual(find(index, id, 42)?.identifier, id) }
    XCTAssertNil(find(index, "abe", 42))
    XCTAssertNil(find(index, "abc", 43))
  }

  /// The index holds one reference to each record it indexes and gives it back on
  /// removal, replacement, and when the index itself goes away.
  func testTheIndexOwnsItsRecords() {
    weak var removed: PendingRecord?
    weak var replaced: PendingRecord?
    weak var kept: PendingRecord?
    do {
      var index = PendingIndex()
      do {
        let a = record("a")
        let b = record("b")
        let c = record("c")
        (removed, replaced, kept) = (a, b, c)
        index.insert(a, hash: 1)
        index.insert(b, hash: 2)
        index.insert(c, hash: 3)
      }
      XCTAssertNotNil(removed)
      XCTAssertNotNil(withUTF8Bytes("a") { index.remove($0, hash: 1) })
      XCTAssertNil(removed)
      withUTF8Bytes("b") { index.replace($0, hash: 2, with: record("b")) }
      XCTAssertNil(replaced)
      XCTAssertEqual(find(index, "b", 2)?.identifier, "b")
      XCTAssertNotNil(kept)
      XCTAssertEqual(index.count, 2)
    }
    XCTAssertNil(kept)
  }

  func testRecordsGiveBackTheRequestTheyStore() {
    var c = content("Tytuł ✓", category: "message", thread: "wątek", badge: 3)
    c.body = String(repeating: "body ", count: 40)
    c.subtitle = "sub"
    c.sound = .named("ping.caf")
    c.userInfo = JSONText(bytes: Array(#"{"k":[1,2,"ż"]}"#.utf8))
    let calendar = Trigger.calendar(
      try! CalendarTrigger(dateMatching: .init(hour: 9, minute: 30), timeZone: "Europe/Warsaw", repeats: true))
    for (id, trigger) in [("zażółć-1", calendar), ("x", interval(61, repeats: true)), ("", nil)] as [(String, Trigger?)]
    {
      let entry = PendingRequest(
        request: request(id, c, trigger), anchor: start, nextDate: start.adding(milliseconds: 5), addedSequence: 9)
      let r = PendingRecord.make(entry.request, anchor: entry.anchor, nextDate: entry.nextDate, addedSequence: 9)
      XCTAssertEqual(r.entry, entry)
      XCTAssertEqual(r.identifier, id)
      // Shorter text fits the same record; longer text does not.
      var shorter = entry.request
      shorter.content.body = "b"
      XCTAssertTrue(r.overwrite(shorter, anchor: start, nextDate: start, addedSequence: 10))
      XCTAssertEqual(r.entry, PendingRequest(request: shorter, anchor: start, nextDate: start, addedSequence: 10))
      var longer = entry.request
      longer.content.body = String(repeating: "x", count: 4096)
      XCTAssertFalse(r.overwrite(longer, anchor: start, nextDate: start, addedSequence: 11))
    }
  }

  func testEmptyContentRoundTrips() {
    let entry = PendingRequest(
      request: request("e", Content(), interval(5)), anchor: start, nextDate: start, addedSequence: 1)
    let r = PendingRecord.make(entry.request, anchor: start, nextDate: start, addedSequence: 1)
    XCTAssertEqual(r.entry, entry)
    XCTAssertEqual(r.entry.request.content.userInfo, JSONText.emptyObject)
  }
}
