import Foundation
import TestSupport
import XCTest

@testable import UNStore

/// The pages a checkpoint pass appends to the database file are given back to the kernel
/// after the pass (`AppendedPages`), and the data stays whole.
final class AppendedPagesTests: XCTestCase {
  private var directory = ""

  override func setUpWithError() throws {
    directory = try DaemonProcess.makeTemporaryDirectory()
    addTeardownBlock { [directory] in try? FileManager.default.removeItem(atPath: directory) }
    guard try PageCache.dropsCleanPages(in: directory) else {
      throw XCTSkip("this filesystem keeps clean pages after POSIX_FADV_DONTNEED (tmpfs)")
    }
  }

  /// What was there when it started stays cached; what is appended and synced goes at
  /// the next `release`.
  func testAppendedAndSyncedPagesLeaveTheCache() throws {
    let path = directory + "/file"
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    XCTAssertGreaterThanOrEqual(fd, 0)
    defer { close(fd) }
    let block = 256 * 1024
    XCTAssertEqual(write(fd, [UInt8](repeating: 1, count: block), block), block)
    XCTAssertEqual(fdatasync(fd), 0)
    var pages = AppendedPages(fd: fd)
    XCTAssertEqual(write(fd, [UInt8](repeating: 2, count: block), block), block)
    XCTAssertEqual(fdatasync(fd), 0)
    pages.release()
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    var (resident, total) = try PageCache.residentPages(of: path)
    XCTAssertEqual(total, 2 * block / page)
    XCTAssertEqual(resident, block / page, "only the pages from before stay")
    // A page appended but still dirty at one release is written back, and goes at the next.
    XCTAssertEqual(write(fd, [UInt8](repeating: 3, count: block), block), block)
    pages.release()
    XCTAssertEqual(fdatasync(fd), 0)
    pages.release()
    (resident, total) = try PageCache.residentPages(of: path)
    XCTAssertEqual(resident, block / page, "\(resident) of \(total) pages cached")
    let back = try Data(contentsOf: URL(fileURLWithPath: path))
    XCTAssertEqual(
      Array(back),
      [UInt8](repeating: 1, count: block) + [UInt8](repeating: 2, count: block)
        + [UInt8](repeating: 3, count: block))
  }

  /// Without a descriptor nothing happens.
  func testNoDescriptorDoesNothing() {
    var pages = AppendedPages(fd: -1)
    pages.release()
  }

  /// Through the store: the checkpointer's passes copy ~5 MB into the database file, and
  /// most of what they appended is no longer cached by the kernel; every row reads back
  /// after a reopen.
  func testTheCheckpointerGivesBackWhatItAppended() throws {
    let store = try SQLiteStore(directory: directory, durability: .normal)
    let database = directory + "/uncenter.db"
    for batch in 1...6 as ClosedRange<UInt64> {
      let rows: [StoreChange] = (0..<1000 as Range<UInt64>).map { i in
        let n = batch * 10_000 + i
        return .putNumbered(table: "p", app: "a", number: n, value: Array(repeating: UInt8(n % 251), count: 900))
      }
      try store.commit(rows)
      store.maintain()
    }
    var cached = (resident: 0, total: 0)
    for _ in 0..<1000 {
      cached = try PageCache.residentPages(of: database)
      if cached.total > 1000 && cached.resident * 4 < cached.total { break }
      usleep(10_000)
      store.maintain()
    }
    XCTAssertGreaterThan(cached.total, 1000, "the passes copied the log into the database")
    XCTAssertLessThan(cached.resident * 4, cached.total, "\(cached.resident) of \(cached.total) pages cached")
    store.close()
    let reopened = try SQLiteStore(directory: directory, durability: .normal)
    let loaded = try reopened.loadAll()
    XCTAssertEqual(loaded.count, 6000)
    XCTAssertTrue(
      loaded.allSatisfy { row in
        UInt64(row.key).map { row.value == Array(repeating: UInt8($0 % 251), count: 900) } ?? false
      },
      "every row's value as written")
    reopened.close()
  }
}
