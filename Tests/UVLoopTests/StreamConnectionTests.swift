import Glibc
import UVLoop
import XCTest

final class StreamConnectionTests: LoopTestCase {
  func testEchoRoundTrip() throws {
    let path = socketPath()
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      try? connection.startReading(
        onData: { connection.write(Array($0)) },
        onEnd: { error in
          XCTAssertNil(error)
          connection.close()
          server.close()
        })
    }
    let message = Array("hello, loop".utf8)
    var received: [UInt8] = []
    connectClient(path: path) { client in
      client.write(message)
      try? client.startReading(
        onData: { bytes in
          received += bytes
          if received.count >= message.count { client.close() }
        },
        onEnd: { XCTFail("unexpected end: \(String(describing: $0))") })
    }
    try runLoop()
    XCTAssertEqual(received, message)
    assertCleanShutdown()
  }

  func testPeerCredentialsAreThisProcess() throws {
    let path = socketPath()
    var credentials: PeerCredentials?
    var clientCredentials: PeerCredentials?
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      credentials = connection.peerCredentials()
      XCTAssertNotNil(connection.fileDescriptor)
      connection.close()
      XCTAssertNil(connection.fileDescriptor)
      XCTAssertNil(connection.peerCredentials())
      server.close()
    }
    connectClient(path: path) { client in
      clientCredentials = client.peerCredentials()
      client.close()
    }
    try runLoop()
    let expected = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
    XCTAssertEqual(credentials, expected)
    XCTAssertEqual(clientCredentials, expected)
    assertCleanShutdown()
  }

  func testEndOfStreamReachesOnEndNil() throws {
    let path = socketPath()
    var ended: [UVError?] = []
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      try? connection.startReading(
        onData: { _ in XCTFail("no data expected") },
        onEnd: { error in
          ended.append(error)
          XCTAssertFalse(connection.isReading, "reading stops at end of stream")
          connection.close()
          server.close()
        })
    }
    connectClient(path: path) { $0.close() }
    try runLoop()
    XCTAssertEqual(ended.count, 1)
    XCTAssertNil(ended.first ?? nil)
    assertCleanShutdown()
  }

  /// Backpressure: while reading is stopped no bytes are delivered; resuming delivers
  /// them with the callbacks given to `startReading`.
  func testStopAndResumeReading() throws {
    let path = socketPath()
    var received: [UInt8] = []
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      try? connection.startReading(
        onData: { bytes in
          received += bytes
          if received.count == 3 { connection.close() }
        },
        onEnd: { _ in XCTFail("unexpected end") })
      XCTAssertTrue(connection.isReading)
      connection.stopReading()
      XCTAssertFalse(connection.isReading)
      let resume = try? LoopTimer(loop: connection.loop)
      try? resume?.start(afterMilliseconds: 20) {
        XCTAssertEqual(received, [], "nothing delivered while stopped")
        do {
          try connection.resumeReading()
        } catch {
          XCTFail("resume failed: \(error)")
        }
        resume?.close()
      }
      server.close()
    }
    connectClient(path: path) { client in
      client.write([1, 2, 3])
      try? client.startReading(onData: { _ in }, onEnd: { _ in client.close() })
    }
    try runLoop()
    XCTAssertEqual(received, [1, 2, 3])
    assertCleanShutdown()
  }

  func testShutdownSendsQueuedBytesThenEnd() throws {
    let path = socketPath()
    var received = 0
    var sawEnd = false
    var shutdownResult: UVError?? = .none
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      connection.write([UInt8](repeating: 7, count: 1 << 20))
      do {
        try connection.shutdown { error in
          shutdownResult = .some(error)
          connection.close()
        }
      } catch {
        XCTFail("shutdown: \(error)")
      }
      server.close()
    }
    connectClient(path: path) { client in
      try? client.startReading(
        onData: { received += $0.count },
        onEnd: { error in
          XCTAssertNil(error)
          sawEnd = true
          client.close()
        })
    }
    try runLoop()
    XCTAssertEqual(received, 1 << 20)
    XCTAssertTrue(sawEnd)
    if case .some(let error) = shutdownResult {
      XCTAssertNil(error)
    } else {
      XCTFail("shutdown callback did not run")
    }
    assertCleanShutdown()
  }

  func testClosingInsideOwnReadCallbackIsSafe() throws {
    let path = socketPath()
    var closeCallbackRan = false
    var dataCalls = 0
    var clientSawEnd = false
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      try? connection.startReading(
        onData: { _ in
          dataCalls += 1
          connection.close { closeCallbackRan = true }
          connection.close()  // idempotent, even here
          XCTAssertTrue(connection.isClosing)
          connection.write([1, 2, 3])  // dropped, not crashed
          connection.stopReading()
          server.close()
        },
        onEnd: { _ in XCTFail("closed connections get no onEnd") })
    }
    connectClient(path: path) { client in
      client.write([UInt8](repeating: 1, count: 300_000))
      try? client.startReading(
        onData: { _ in },
        onEnd: { _ in
          clientSawEnd = true
          client.close()
        })
    }
    try runLoop()
    XCTAssertEqual(dataCalls, 1)
    XCTAssertTrue(closeCallbackRan)
    XCTAssertTrue(clientSawEnd)
    assertCleanShutdown()
  }
}
