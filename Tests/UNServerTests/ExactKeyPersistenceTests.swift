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

  /// An older version accepted U+0000 in identifiers and kept them: such rows still load
  /// (clients can no longer send them, and a start-up that refused them would stop the
  /// daemon for everyone), a zone named `UTC` + NUL as the zone it resolved to.
  func testRowsAnOlderVersionWroteWithANulStillLoad() throws {
    let store = MemoryStore()
    let pending =
      #"{"request":{"identifier":"r\u0000","content":{"title":"T","categoryIdentifier":"c\u0000","threadIdentifier":"t\u0000","#
      + #""targetContentIdentifier":"x\u0000"},"trigger":{"type":"calendar","dateMatching":{"hour":9},"timeZone":"UTC\u0000","#
      + #""repeats":true}},"anchor":1767254400000,"next":1767258000000,"added":1}"#
    let categories =
      #"[{"identifier":"c\u0000","actions":[{"identifier":"a\u0000","title":"A"}],"intentIdentifiers":["i\u0000"]}]"#
    try store.commit([
      .putNumbered(table: Persistence.Table.pending, app: "a\u{0}b", number: 1, value: Array(pending.utf8)),
      .put(StoredRow(table: Persistence.Table.categories, app: "a\u{0}b", key: "", value: Array(categories.utf8))),
    ])
    let center = Center(clock: ManualClock(t0))
    try Persistence(store: store).load(into: center)
    let app = center.app("a\u{0}b")
    let request = try XCTUnwrap(app.pending.unordered.first?.request)
    XCTAssertEqual(Array(request.identifier.utf8), Array("r\u{0}".utf8))
    XCTAssertEqual(Array(request.content.categoryIdentifier.utf8), Array("c\u{0}".utf8))
    guard case .calendar(let trigger)? = request.trigger else {
      return XCTFail("\(String(describing: request.trigger))")
    }
    XCTAssertEqual(trigger.timeZoneIdentifier, "UTC")
    XCTAssertEqual(app.categories.first.map { Array($0.identifier.utf8) }, Array("c\u{0}".utf8))
    XCTAssertNil(center.apps["a"], "the app is not the one its name begins with")
  }
}
