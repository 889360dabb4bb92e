import Foundation
import TestSupport
import XCTest

@testable import UNStore

/// The store on a file system that fills up: a commit that does not fit fails with an
/// error naming the database and the system's reason (the process goes on), leaves the
/// stored state as it was, and the same changes commit once there is room again.
final class FullDiskTests: XCTestCase {
  private var disk: SmallFilesystem?

  override func tearDown() {
    disk?.unmount()
    disk = nil
  }

  private func mount(_ bytes: Int) throws -> SmallFilesystem {
    let (made, reason) = try SmallFilesystem.make(bytes: bytes)
    guard let made else { throw XCTSkip(reason) }
    disk = made
    return made
  }

  private func rows(_ first: UInt64, _ count: UInt64) -> [StoreChange] {
    (first..<first + count).map {
      .putNumbered(table: "t", app: "a", number: $0, value: [UInt8](repeating: UInt8($0 % 251), count: 3000))
    }
  }

  func testACommitThatDoesNotFitFailsAndTheSameCommitsOnceThereIsRoom() throws {
    let disk = try mount(4 << 20)
    let directory = disk.path + "/state"
    let store = try SQLiteStore(directory: directory, durability: .normal, reserveBytes: 256 << 10)
    try store.restoreReserve()
    XCTAssertTrue(store.reserve.isHeld)
    try store.commit(rows(1, 10))
    disk.fill(leaving: 64 << 10)
    var next: UInt64 = 11
    var failure: StoreError?
    while failure == nil && next < 10_000 {
      do {
        try store.commit(rows(next, 10))
        next += 10
      } catch {
        failure = error
      }
    }
    let error = try XCTUnwrap(failure, "the disk never filled")
    XCTAssertTrue(error.description.contains(directory + "/uncenter.db"), error.description)
    XCTAssertTrue(
      error.description.contains("No space left on device") || error.description.contains("full"), error.description)
    // The reserve's room takes the same commit.
    XCTAssertTrue(store.releaseReserve())
    try store.commit(rows(next, 10))
    let durable = next + 10
    XCTAssertThrowsError(try store.restoreReserve(), "no room for the reserve on a full disk")
    disk.free()
    try store.restoreReserve()
    try store.commit(rows(durable, 10))
    store.close()
    let reopened = try SQLiteStore(directory: directory, durability: .normal)
    let numbers = try reopened.loadAll().compactMap { UInt64($0.key) }.sorted()
    XCTAssertEqual(numbers, Array(1..<durable + 10))
    reopened.close()
  }
}
