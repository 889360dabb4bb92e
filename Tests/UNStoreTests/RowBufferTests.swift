import Foundation
import UNStore
import XCTest

/// The lists the loop hands to the writer, gathered into the writer's own list for one
/// commit (`RowBuffer.append(contentsOf:)`).
final class RowBufferTests: XCTestCase {
  private func list(_ build: (inout RowBuffer) -> Void) -> RowBuffer {
    var list = RowBuffer(rows: 4, rowBytes: 16)
    build(&list)
    return list
  }

  private func keyed(_ key: String, _ text: String) -> StoreChange {
    .put(StoredRow(table: "t", app: "a", key: key, value: Array(text.utf8)))
  }

  private func numbered(_ list: inout RowBuffer, _ table: String, _ app: String, _ number: UInt64, _ text: String) {
    list.putNumbered(table: table, app: app, number: number) { $0.append(contentsOf: text.utf8) }
  }

  /// Describes changes by value, so that lists built differently compare equal.
  private func describe(_ list: RowBuffer) -> [String] {
    list.changes.map { change in
      switch change {
      case .put(let row): "put \(row.table)/\(row.app)/\(row.key)=\(String(decoding: row.value, as: UTF8.self))"
      case .delete(let table, let app, let key): "delete \(table)/\(app)/\(key)"
      case .deleteApp(let app): "deleteApp \(app)"
      case .putNumbered(let table, let app, let number, let value):
        "putNumbered \(table)/\(app)/\(number)=\(text(of: value))"
      case .deleteNumbered(let table, let number): "deleteNumbered \(table)/\(number)"
      }
    }
  }

  private func text(of value: any StoredValue) -> String {
    var bytes: [UInt8] = []
    value.write(into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  func testAppendedListsKeepEveryChangeInOrder() {
    let first = list {
      $0.append(keyed("k", "one"))
      numbered(&$0, "pending", "com.a", 7, "seven")
      $0.deleteNumbered(table: "events", number: 3)
      numbered(&$0, "events", "com.a", 9, "nine")
    }
    let second = list {
      numbered(&$0, "events", "com.b", 10, "ten")
      $0.append(keyed("k", "two"))
      numbered(&$0, "pending", "com.b", 8, "eight")
      $0.deleteNumbered(table: "pending", number: 7)
    }
    var gathered = RowBuffer()
    gathered.append(contentsOf: first)
    gathered.append(contentsOf: second)
    // The writer's own list is reused: emptied, it gathers again from the start.
    var again = RowBuffer()
    again.append(contentsOf: second)
    again.removeAll()
    again.append(contentsOf: first)
    again.append(contentsOf: second)

    let expected = describe(first) + describe(second)
    XCTAssertEqual(expected.count, 8)
    XCTAssertEqual(describe(gathered), expected)
    XCTAssertEqual(describe(again), expected)
    // A row written after gathering names its table and app by their own bytes.
    numbered(&gathered, "events", "com.b", 11, "eleven")
    XCTAssertEqual(describe(gathered).last, "putNumbered events/com.b/11=eleven")
  }

  /// Gathered lists commit as the same changes one by one would, in order: the last put
  /// of a row wins, a deleted row is gone.
  func testGatheredListsCommitLikeTheirChanges() throws {
    let directory = NSTemporaryDirectory() + "unstore-changelist-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let first = list {
      numbered(&$0, "pending", "com.a", 1, "a1")
      numbered(&$0, "pending", "com.a", 2, "a2")
      numbered(&$0, "events", "com.a", 100, "e100")
    }
    let second = list {
      $0.deleteNumbered(table: "pending", number: 1)
      numbered(&$0, "pending", "com.a", 2, "a2 again")
      numbered(&$0, "events", "com.a", 101, "e101")
      $0.append(keyed("k", "v"))
    }
    var gathered = RowBuffer()
    gathered.append(contentsOf: first)
    gathered.append(contentsOf: second)
    let store = try SQLiteStore(directory: directory, durability: .normal)
    try store.commit(gathered)
    store.close()
    let rows = try SQLiteStore(directory: directory, durability: .normal).loadAll().map {
      "\($0.table)/\($0.app)/\($0.key)=\(String(decoding: $0.value, as: UTF8.self))"
    }
    XCTAssertEqual(
      Set(rows), ["events/com.a/100=e100", "events/com.a/101=e101", "pending/com.a/2=a2 again", "t/a/k=v"])
  }
}
