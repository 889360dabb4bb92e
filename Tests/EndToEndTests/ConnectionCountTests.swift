import Foundation
import JSONRPC
import TestSupport
import XCTest

/// A connection that closes is forgotten and its descriptor closed, whenever it closes:
/// also while a `--state` commit is in flight (a readiness probe that connects and closes
/// as the daemon starts and its first clients' changes are being committed).
final class ConnectionCountTests: EndToEndTestCase {
  /// The daemon's descriptors of connections accepted on `socketPath` (the kernel's table
  /// of Unix sockets names the listener's path for them too; the listener is left out).
  /// Descriptors the daemon inherited from the test runner are not counted.
  private func acceptedConnections(_ pid: Int32, _ socketPath: String) -> Int {
    let dir = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    let inodes = Set(
      names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + $0) }
        .filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) })
    let table = (try? String(contentsOfFile: "/proc/net/unix", encoding: .utf8)) ?? ""
    // Num RefCount Protocol Flags Type St Inode Path; the listener has __SO_ACCEPTCON.
    return table.split(separator: "\n").dropFirst().filter { line in
      let f = line.split(separator: " ", omittingEmptySubsequences: true)
      return f.count >= 8 && inodes.contains(String(f[6])) && f[7] == socketPath && f[3] != "00010000"
    }.count
  }

  private func openDescriptors(_ pid: Int32) -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
  }

  /// Polls until `done` (or 10 s).
  private func eventually(_ done: () throws -> Bool) rethrows {
    let deadline = Date().addingTimeInterval(10)
    while try !done(), Date() < deadline { usleep(20_000) }
  }

  /// Holds SQLite's write lock on the daemon's database (`BEGIN IMMEDIATE` from another
  /// process) until `release` is called: the daemon's next commit then waits (within
  /// its busy timeout), so a commit is in flight for as long as the test wants.
  private func holdWriteLock(_ database: String) throws -> (release: () -> Void, process: Process) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    p.arguments = [
      "-c",
      "import sqlite3,sys; db=sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10); "
        + "db.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.readline(); db.execute('COMMIT')",
      database,
    ]
    let input = Pipe()
    let output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    try p.run()
    let line = output.fileHandleForReading.availableData
    XCTAssertTrue(String(decoding: line, as: UTF8.self).hasPrefix("locked"), String(decoding: line, as: UTF8.self))
    return ({ input.fileHandleForWriting.write(Data("\n".utf8)) }, p)
  }

  func testConnectionsThatCloseWhileACommitIsInFlightAreForgottenAndClosed() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
      throw XCTSkip("needs python3's sqlite3 module to hold the database's write lock")
    }
    let dir = try DaemonProcess.makeTemporaryDirectory()
    let d = try DaemonProcess(
      arguments: DaemonProcess.defaultArguments + ["--state", dir + "/state"], directory: dir, waitForSocket: false)
    addTeardownBlock {
      d.stop()
      try? FileManager.default.removeItem(atPath: dir)
    }
    let pid = d.process.processIdentifier
    // Probes connect and close as soon as the socket accepts, while the daemon starts.
    var probes = 0
    let deadline = Date().addingTimeInterval(15)
    while probes < 20, Date() < deadline {
      guard let s = try? RawSocket(path: d.socketPath) else {
        XCTAssertTrue(d.process.isRunning, d.stderr)
        usleep(1000)
        continue
      }
      s.close()
      probes += 1
    }
    XCTAssertEqual(probes, 20, "the daemon did not accept: \(d.stderr)")
    let c = try d.connect()

    // A change whose commit cannot finish yet, and probes that close meanwhile.
    let lock = try holdWriteLock(dir + "/state/uncenter.db")
    let writer = try d.raw()
    try writer.send(
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"app":"com.a","identifier":"n","content":{},"trigger":null}}"#
        + "\n")
    XCTAssertNil(writer.readLine(timeout: 0.3), "answered before its commit")
    for _ in 0..<10 { try d.raw().close() }
    usleep(200_000)
    lock.release()
    XCTAssertNotNil(parseLine(writer.readLine())?["result"], "answered once committed")
    lock.process.waitUntilExit()
    writer.close()

    var connections: Int?
    try eventually {
      connections = try ok(c.call("stats"))["connections"]?.intValue
      return connections == 1 && acceptedConnections(pid, d.socketPath) == 1
    }
    XCTAssertEqual(connections, 1, "only the caller is connected")
    XCTAssertEqual(acceptedConnections(pid, d.socketPath), 1, "the daemon holds the caller's descriptor only")

    // Later too: descriptors come back to where they were.
    let baseline = openDescriptors(pid)
    for _ in 0..<10 { try d.raw().close() }
    do {
      // Closed when it goes out of scope, right after its answer.
      let user = try userConnection(d)
      _ = try ok(user.call("scheduleLocal", json(#"{"app":"com.a","identifier":"x","content":{},"trigger":null}"#)))
    }
    try eventually {
      try ok(c.call("stats"))["connections"]?.intValue == 1 && openDescriptors(pid) == baseline
    }
    XCTAssertEqual(try ok(c.call("stats"))["connections"]?.intValue, 1)
    XCTAssertEqual(openDescriptors(pid), baseline)
  }
}
