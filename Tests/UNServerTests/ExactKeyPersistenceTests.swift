import Foundation
import JSONRPC
import UNModel
import UNStore
import XCTest

@testable import UNServer

/// The wire refuses U+0000 in app ids and identifiers; below it, the center and the
/// store still keep every key exact, so that apps whose names share a prefix up to a
/// NUL, or are two spellings of one text, reload as the apps they were.
final class ExactKeyPersistenceTests: XCTestCase {
  private let t0 = Instant(milliseconds: 1_767_254_400_000)
  private let apps: [(id: String, owner: UInt32)] = [
    ("com.victim", 65534), ("com.victim\u{0}x", 65533), ("com.caf\u{E9}", 1000), ("com.cafe\u{301}", 1001),
  ]

  private func fill(_ center: Center) throws {
    for (i, app) in apps.enumerated() {
      center.claim(app: app.id, uid: app.owner)
      _ = try center.registerCategories(app: app.id, [Category(identifier: "c\(i)")])
      var content = Content()
      content.title = "pending of \(i)"
      _ = try center.schedule(
        app: app.id,
        NotificationRequest(
          identifier: "r\u{E9}", content: content,
          trigger: .timeInterval(try TimeIntervalTrigger(seconds: 600, repeats: false))))
      content.title = "delivered of \(i)"
      _ = try center.schedule(app: app.id, NotificationRequest(identifier: "d\(i)", content: content, trigger: nil))
      _ = center.registerLocalizedStrings(app: app.id, [ExactKey("k\(i)"): "v"])
    }
    _ = center.takeEffects()
  }

  private func assertReloaded(_ store: StateStore, file: StaticString = #filePath, line: UInt = #line) throws {
    let center = Center(clock: ManualClock(t0))
    try Persistence(store: store).load(into: center)
    XCTAssertEqual(center.apps.count, apps.count, file: file, line: line)
    for (i, app) in apps.enumerated() {
      XCTAssertEqual(center.owner(of: app.id), app.owner, "\(i)", file: file, line: line)
      let state = center.app(app.id)
      XCTAssertEqual(Array(state.appId.utf8), Array(app.id.utf8), "\(i)", file: file, line: line)
      XCTAssertEqual(state.categories.map(\.identifier), ["c\(i)"], "\(i)", file: file, line: line)
      XCTAssertEqual(
        state.pending.unordered.map(\.request.content.title), ["pending of \(i)"], "\(i)", file: file, line: line)
      XCTAssertEqual(state.delivered.keys, ["d\(i)"], "\(i)", file: file, line: line)
      XCTAssertEqual(state.localizedStrings.count, 1, "\(i)", file: file, line: line)
      XCTAssertEqual(
        center.history.events(of: app.id).map(\.kind), [.scheduled, .delivered], "\(i)", file: file, line: line)
    }
  }

  func testAppsThatMeetUnderStringEqualityOrACStringReloadApart() throws {
    let directory = NSTemporaryDirectory() + "exact-persistence-\(UUID().uuidString)"
    addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
    for store in [try SQLiteStore(directory: directory, durability: .normal), MemoryStore()] as [StateStore] {
      let center = Center(clock: ManualClock(t0))
      center.changes.isEnabled = true
      try fill(center)
      try Persistence(store: store).commit(center)
      try assertReloaded(store)
      store.close()
    }
  }
}
