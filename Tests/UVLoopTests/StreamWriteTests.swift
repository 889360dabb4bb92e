import Glibc
import UVLoop
import XCTest

/// Large writes, backpressure accounting and write-failure paths.
final class StreamWriteTests: LoopTestCase {
  /// A recognizable byte pattern (period 251, so it does not line up with buffer sizes).
  static func pattern(_ count: Int) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      var value: UInt8 = 0
      for index in 0..<count {
        buffer[index] = value
        value = value == 250 ? 0 : value + 1
      }
      initialized = count
    }
  }

  func testLargeWriteArrivesIntactAndDrains() throws {
    let path = socketPath()
    let payload = Self.pattern(8 << 20)
    var queuedAfterWrite = 0
    var drains = 0
    var queuedAtDrain = -1
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      connection.onDrain = {
        drains += 1
        queuedAtDrain = connection.queuedWriteBytes
        connection.close()
      }
      connection.onWriteError = { XCTFail("write error: \($0)") }
      connection.write(payload)
      queuedAfterWrite = connection.queuedWriteBytes
      server.close()
    }
    var received: [UInt8] = []
    received.reserveCapacity(payload.count)
    connectClient(path: path) { client in
      try? client.startReading(
        onData: { received += $0 },
        onEnd: { error in
          XCTAssertNil(error)
          client.close()
        })
    }
    try runLoop()
    XCTAssertGreaterThan(queuedAfterWrite, 0, "8 MiB cannot fit in a socket buffer")
    XCTAssertLessThanOrEqual(queuedAfterWrite, payload.count)
    XCTAssertEqual(drains, 1)
    XCTAssertEqual(queuedAtDrain, 0)
    XCTAssertEqual(received.count, payload.count)
    XCTAssertTrue(received == payload, "bytes arrived intact and in order")
    assertCleanShutdown()
  }

  func testManySmallWritesKeepOrderBehindQueue() throws {
    let path = socketPath()
    let chunk = 100_000
    let chunks = 40
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      for index in 0..<chunks {
        connection.write([UInt8](repeating: UInt8(index), count: chunk))
      }
      connection.onDrain = { connection.close() }
      server.close()
    }
    var received: [UInt8] = []
    connectClient(path: path) { client in
      try? client.startReading(onData: { received += $0 }, onEnd: { _ in client.close() })
    }
    try runLoop()
    XCTAssertEqual(received.count, chunk * chunks)
    let inOrder = (0..<chunks).allSatisfy { index in
      received[index * chunk..<(index + 1) * chunk].allSatisfy { $0 == UInt8(index) }
    }
    XCTAssertTrue(inOrder)
    assertCleanShutdown()
  }

  func testCloseWithQueuedWritesCancelsWithoutErrors() throws {
    let path = socketPath()
    var closed = false
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      connection.onWriteError = { XCTFail("cancelled writes are not errors: \($0)") }
      connection.onDrain = { XCTFail("no drain after close") }
      connection.write(Self.pattern(4 << 20))
      XCTAssertGreaterThan(connection.queuedWriteBytes, 0)
      connection.close { closed = true }
      server.close()
    }
    connectClient(path: path) { client in
      try? client.startReading(onData: { _ in }, onEnd: { _ in client.close() })
    }
    try runLoop()
    XCTAssertTrue(closed)
    assertCleanShutdown()
  }

  /// Writing to a peer that went away reports EPIPE/ECONNRESET instead of killing the
  /// process with SIGPIPE.
  func testWriteToVanishedPeerReportsError() throws {
    let path = socketPath()
    var writeErrors: [UVError] = []
    var server: PipeServer!
    server = try makeServer(path: path) { connection in
      connection.onWriteError = { error in
        writeErrors.append(error)
        connection.close()
      }
      // The client closes on connect; keep writing until the failure surfaces.
      let timer = try? LoopTimer(loop: connection.loop)
      try? timer?.start(afterMilliseconds: 1, repeatMilliseconds: 1) {
        if connection.isClosing {
          timer?.close()
        } else {
          connection.write([UInt8](repeating: 0, count: 64 << 10))
        }
      }
      server.close()
    }
    connectClient(path: path) { $0.close() }
    try runLoop()
    XCTAssertFalse(writeErrors.isEmpty)
    let names = Set(writeErrors.map(\.name))
    XCTAssertTrue(names.isSubset(of: ["EPIPE", "ECONNRESET"]), "\(names)")
    assertCleanShutdown()
  }
}
