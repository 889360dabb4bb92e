import Foundation
import TestSupport
import XCTest

@testable import UNServer

/// A log that is a regular file: every line arrives, and the pages written are given back
/// to the kernel once they are on the disk (`LogSink.WrittenPages`).
final class LogSinkFileTests: XCTestCase {
  private var directory = ""

  override func setUpWithError() throws {
    directory = try DaemonProcess.makeTemporaryDirectory()
    addTeardownBlock { [directory] in try? FileManager.default.removeItem(atPath: directory) }
  }

  private func openFile(_ name: String, flags: Int32 = O_WRONLY | O_CREAT | O_TRUNC) -> (path: String, fd: Int32) {
    let path = directory + "/" + name
    let fd = open(path, flags | O_CLOEXEC, 0o600)
    XCTAssertGreaterThanOrEqual(fd, 0)
    addTeardownBlock { close(fd) }
    return (path, fd)
  }

  /// Several windows' worth of lines (3 MiB through an appending descriptor, as
  /// `2>>file` gives), all there, in order.
  func testAFileLogKeepsEveryLineAcrossWindows() throws {
    let (path, fd) = openFile("daemon.log", flags: O_WRONLY | O_CREAT | O_APPEND)
    let log = Log(level: .info, journal: false, sink: LogSink(fd: fd))
    let count = 40_000
    for i in 0..<count {
      log.info(
        "scheduled", ["app": "com.example", "id": "request-\(i)", "nextTriggerDate": "2026-12-03T18:00:00.000Z"])
    }
    log.flush()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    XCTAssertGreaterThan(text.utf8.count, 3 * LogSink.WrittenPages.window)
    let lines = text.split(separator: "\n")
    XCTAssertEqual(lines.count, count)
    XCTAssertEqual(lines.first.map(String.init)?.contains("id=request-0 "), true)
    XCTAssertEqual(lines.last.map(String.init)?.contains("id=request-\(count - 1) "), true)
    for (i, line) in lines.enumerated() where i % 997 == 0 {
      XCTAssertTrue(line.contains("id=request-\(i) "), "line \(i): \(line)")
    }
  }

  /// Windows already on the disk leave the page cache at the mark that ends them, and the
  /// bytes read back whole (from the disk).
  func testWrittenBackWindowsLeaveThePageCache() throws {
    guard try PageCache.dropsCleanPages(in: directory) else {
      throw XCTSkip("this filesystem keeps clean pages after POSIX_FADV_DONTNEED (tmpfs)")
    }
    let (path, fd) = openFile("pages.log")
    var pages = LogSink.WrittenPages(fd: fd)
    let window = LogSink.WrittenPages.window
    for n in 0..<3 {
      let bytes = [UInt8](repeating: UInt8(65 + n), count: window)
      XCTAssertEqual(write(fd, bytes, bytes.count), bytes.count)
      // As if the disk had caught up: the window's pages are clean.
      XCTAssertEqual(fdatasync(fd), 0)
      pages.wrote(bytes.count)
    }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let (resident, total) = try PageCache.residentPages(of: path)
    XCTAssertEqual(total, 3 * window / page)
    // The mark at 3 MiB advised [1 MiB, 3 MiB) and the one before [0, 2 MiB): nothing of it
    // written back is still cached.
    XCTAssertEqual(resident, 0, "\(resident) of \(total) pages still cached")
    let back = try Data(contentsOf: URL(fileURLWithPath: path))
    XCTAssertEqual(back.count, 3 * window)
    XCTAssertEqual(back.first, 65)
    XCTAssertEqual(back[window], 66)
    XCTAssertEqual(back.last, 67)
  }

  /// Less than a window written: nothing is advised yet, the pages stay cached.
  func testLessThanAWindowStaysCached() throws {
    guard try PageCache.dropsCleanPages(in: directory) else {
      throw XCTSkip("this filesystem keeps clean pages after POSIX_FADV_DONTNEED (tmpfs)")
    }
    let (path, fd) = openFile("short.log")
    var pages = LogSink.WrittenPages(fd: fd)
    let bytes = [UInt8](repeating: 1, count: LogSink.WrittenPages.window / 2)
    XCTAssertEqual(write(fd, bytes, bytes.count), bytes.count)
    XCTAssertEqual(fdatasync(fd), 0)
    pages.wrote(bytes.count)
    let (resident, total) = try PageCache.residentPages(of: path)
    XCTAssertEqual(resident, total)
  }
}
