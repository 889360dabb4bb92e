import Glibc
import UVLoop
import XCTest

final class PipeServerTests: LoopTestCase {
  func testBindCreatesSocketWithExactMode() throws {
    let path = socketPath()
    let previousMask = umask(0o022)
    defer { umask(previousMask) }
    _ = try makeServer(path: path, mode: 0o600) { _ in }
    var info = stat()
    XCTAssertEqual(stat(path, &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFSOCK)
    XCTAssertEqual(info.st_mode & 0o7777, 0o600)
    XCTAssertEqual(umask(0o022), 0o022, "bind restores the process umask")
    assertCleanShutdown()
  }

  func testBindToUsedPathFailsWithAddressInUse() throws {
    let path = socketPath()
    _ = try makeServer(path: path) { _ in }
    let second = try PipeServer(loop: loop)
    XCTAssertThrowsError(try second.bind(path: path, mode: 0o600)) { error in
      XCTAssertEqual((error as? UVError)?.isAddressInUse, true, "\(error)")
    }
    assertCleanShutdown()
  }

  func testOverlongPathIsRejectedNotTruncated() throws {
    let path = directory + "/" + String(repeating: "x", count: 120)
    let server = try PipeServer(loop: loop)
    XCTAssertThrowsError(try server.bind(path: path, mode: 0o600)) { error in
      XCTAssertEqual((error as? UVError)?.name, "ENAMETOOLONG")
    }
    var failure: UVError?
    StreamConnection.connect(loop: loop, path: path) { result in
      if case .failure(let error) = result { failure = error }
    }
    XCTAssertEqual(failure?.name, "ENAMETOOLONG")
    assertCleanShutdown()
  }

  func testConnectToMissingSocketFails() throws {
    var failure: UVError?
    StreamConnection.connect(loop: loop, path: socketPath("missing.sock")) { result in
      if case .failure(let error) = result { failure = error }
    }
    try runLoop()
    XCTAssertEqual(failure?.name, "ENOENT")
    assertCleanShutdown()
  }

  /// Socket activation: adopt a socket that someone else (systemd) bound and listens on.
  func testOpenAdoptsListeningSocket() throws {
    let path = socketPath()
    let inherited = try Self.listeningSocket(path: path)

    let adopted = try PipeServer(loop: loop)
    try adopted.open(fd: inherited)
    var accepted = false
    var connected = false
    try adopted.listen(backlog: 4) { server in
      accepted = (try? server.accept()) != nil
      server.close()
    }
    connectClient(path: path) { client in
      connected = true
      client.close()
    }
    try runLoop()
    XCTAssertTrue(accepted)
    XCTAssertTrue(connected)
    assertCleanShutdown()
  }

  /// Makes a bound, listening socket with plain system calls, as systemd would.
  static func listeningSocket(path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    XCTAssertGreaterThanOrEqual(fd, 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)  // zero-initialized, so NUL-terminated
    }
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    XCTAssertEqual(bound, 0)
    XCTAssertEqual(listen(fd, 8), 0)
    return fd
  }

  /// libuv unlinks the socket file when a server it bound is closed.
  func testClosingBoundServerRemovesSocketFile() throws {
    let path = socketPath()
    let server = try makeServer(path: path) { _ in }
    XCTAssertEqual(access(path, F_OK), 0)
    server.close()
    loop.run()
    XCTAssertNotEqual(access(path, F_OK), 0)
    assertCleanShutdown()
  }
}
