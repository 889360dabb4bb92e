import Foundation
import JSONRPC
import UNModel
import UNStore
import XCTest

@testable import UNServer

/// A long `advanceClock` is one batch whose journal drops, as it goes, what the store
/// would write only to overwrite or delete in the same commit: what it commits reloads as
/// the state the advance ended in, and later batches go on from there.  The manual
/// clock a store keeps is a date RFC 3339 can write.
final class AdvancePersistenceTests: XCTestCase {
  private let t0 = Instant(milliseconds: 1_767_254_400_000)

  private func request(_ id: String, seconds: Double, repeats: Bool = false) throws -> NotificationRequest {
    var content = Content()
    content.title = id
    return NotificationRequest(
      identifier: id, content: content,
      trigger: .timeInterval(try TimeIntervalTrigger(seconds: seconds, repeats: repeats)))
  }

  /// What a reload must reproduce: the clock, each app's pending requests and their next
  /// dates, delivered notifications and their dates, and the event history.
  private func state(_ center: Center) -> String {
    var lines = ["now \(center.clock.now)"]
    for (id, app) in center.apps.sorted(by: { $0.key < $1.key }) {
      for r in app.pending.unordered.sorted(by: { $0.identifier < $1.identifier }) {
        lines.append("\(id) pending \(r.identifier) \(r.nextDate)")
      }
      for n in app.delivered.values.sorted(by: { $0.request.identifier < $1.request.identifier }) {
        lines.append("\(id) delivered \(n.request.identifier) \(n.date)")
      }
      let events = center.history.events(of: id.string)
      lines.append("\(id) events \(events.count) \(events.map { "\($0.sequence):\($0.kind)" }.joined(separator: ","))")
    }
    return lines.joined(separator: "\n")
  }

  func testALongAdvanceCommitsTheStateItEndsIn() throws {
    let directory = NSTemporaryDirectory() + "long-advance-\(UUID().uuidString)"
    addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
    let store = try SQLiteStore(directory: directory, durability: .normal)
    let center = Center(clock: ManualClock(t0))
    center.changes.isEnabled = true
    center.onEffectBacklog = { while center.effects.popFirst() != nil {} }
    let persistence = Persistence(store: store)
    func commitAndCompare(_ step: String) throws {
      _ = center.takeEffects()
      try persistence.commit(center)
      let reloaded = Center(clock: ManualClock(t0))
      try Persistence(store: store).load(into: reloaded)
      XCTAssertEqual(state(reloaded), state(center), step)
    }

    _ = try center.schedule(app: "x", try request("tick", seconds: 60, repeats: true))
    _ = try center.schedule(app: "x", try request("once", seconds: 90))
    _ = try center.schedule(app: "x", try request("far", seconds: 86_400 * 30))
    _ = try center.schedule(app: "y", try request("slow", seconds: 120, repeats: true))
    try commitAndCompare("scheduled")

    // 20 000 + 10 000 firings in one batch, each with its fired and delivered events.
    _ = try center.advanceClock(seconds: 20_000 * 60)
    XCTAssertLessThan(center.changes.rowCount, 3 * 4096, "the batch holds about what the store keeps")
    try commitAndCompare("a long advance")

    // Later batches, short and long, from the state the long one left.
    _ = try center.advanceClock(seconds: 300)
    try commitAndCompare("a short advance after it")
    _ = try center.schedule(app: "x", try request("late", seconds: 30))
    _ = try center.advanceClock(seconds: 6_000 * 60)
    try commitAndCompare("another long advance")
    center.reset(app: "y")
    _ = try center.advanceClock(seconds: 60)
    try commitAndCompare("reset")
  }

  /// A clock past 9999 (which an older daemon could store) is refused at load, as any
  /// row the daemon's rules could not have written is; the last date of 9999 is kept.
  func testAStoredClockOutsideRFC3339IsRefusedAtLoad() throws {
    for (clock, valid) in [
      (Instant.latestRFC3339, true), (Instant.latestRFC3339.adding(milliseconds: 1), false),
      (Instant.earliestRFC3339, true), (Instant.earliestRFC3339.adding(milliseconds: -1), false),
    ] {
      var snapshot = CenterSnapshot()
      snapshot.clock = clock
      let row = StateCodec.globalsRow(snapshot)
      var back = CenterSnapshot()
      do {
        try StateCodec.decodeGlobals(try JSONParser.parse(row), into: &back)
        XCTAssertTrue(valid, "a stored clock at \(clock) was loaded")
        XCTAssertEqual(back.clock, clock)
      } catch let error as StateCodec.Corrupt {
        XCTAssertFalse(valid, "\(clock): \(error)")
        XCTAssertTrue(error.description.contains("clock"), error.description)
      }
    }
  }
}
