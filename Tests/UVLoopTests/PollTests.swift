import Glibc
import UVLoop
import XCTest

final class PollTests: LoopTestCase {
  /// A pipe written from outside the loop wakes the poll as readable; the poll never
  /// reads or closes the descriptor itself.
  func testReadableWhenThePipeHasData() throws {
    var fds: [Int32] = [-1, -1]
    XCTAssertEqual(pipe(&fds), 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    let poll = try Poll(loop: loop, fileDescriptor: fds[0])
    XCTAssertEqual(poll.fileDescriptor, fds[0])
    var seen: [Poll.Events] = []
    try poll.start(.readable) { result in
      guard case .success(let events) = result else { return XCTFail("poll error: \(result)") }
      seen.append(events)
      var byte: UInt8 = 0
      XCTAssertEqual(read(fds[0], &byte, 1), 1)
      XCTAssertEqual(byte, 42)
      poll.close()
    }
    XCTAssertTrue(poll.isActive)
    var byte: UInt8 = 42
    XCTAssertEqual(write(fds[1], &byte, 1), 1)
    try runLoop()
    XCTAssertEqual(seen, [.readable])
    XCTAssertTrue(poll.isClosed)
    // The descriptor is still open: closing the poll left it to its owner.
    XCTAssertNotEqual(fcntl(fds[0], F_GETFD), -1)
    assertCleanShutdown()
  }

  /// An empty pipe's write end is writable at once; stop keeps the handle for a restart.
  func testWritableAndRestart() throws {
    var fds: [Int32] = [-1, -1]
    XCTAssertEqual(pipe(&fds), 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    let poll = try Poll(loop: loop, fileDescriptor: fds[1])
    var calls = 0
    try poll.start([.readable, .writable]) { result in
      guard case .success(let events) = result else { return XCTFail("poll error: \(result)") }
      XCTAssertTrue(events.contains(.writable))
      calls += 1
      poll.stop()
    }
    loop.run()
    XCTAssertEqual(calls, 1)
    XCTAssertFalse(poll.isActive)
    XCTAssertFalse(poll.isClosing)
    try poll.start(.writable) { _ in
      calls += 1
      poll.close()
    }
    try runLoop()
    XCTAssertEqual(calls, 2)
    poll.close()  // idempotent after the close callback
    assertCleanShutdown()
  }

  func testStartAfterCloseFails() throws {
    var fds: [Int32] = [-1, -1]
    XCTAssertEqual(pipe(&fds), 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    let poll = try Poll(loop: loop, fileDescriptor: fds[0])
    poll.close()
    XCTAssertThrowsError(try poll.start(.readable) { _ in XCTFail("closed poll called back") })
    assertCleanShutdown()
  }
}
