import Foundation
import JSONRPC
import TestSupport
import XCTest

/// The copies themselves: private whatever the umask and the state directory's mode,
/// within the per-attachment and per-app limits, removed once nothing refers to them,
/// and nothing left of a failed copy (a limit passed, a full file system).
final class AttachmentCopyTests: AttachmentTestCase {
  func testCopiesArePrivateWhateverTheUmaskAndTheStateDirectorysMode() throws {
    try requireOtherUsers()
    let saved = umask(0)
    let world: World
    do {
      defer { umask(saved) }
      world = try makeWorld()
    }
    let answers = try calls(
      as: Self.client, world,
      [
        Self.schedule(1, "file://" + world.own + "/public.txt"),
        #"{"jsonrpc":"2.0","id":2,"method":"listPending","params":{"app":"com.attacker"}}"#,
      ])
    let url = answers[1]?["result"]?["requests"]?[0]?["content"]?["attachments"]?[0]?["url"]?.stringValue ?? ""
    let copy = try XCTUnwrap(URL(string: url)?.path, text(answers[1]))
    func mode(_ path: String) -> mode_t {
      var info = stat()
      XCTAssertEqual(stat(path, &info), 0, path)
      return info.st_mode & 0o7777
    }
    XCTAssertEqual(mode(copy), 0o600)
    XCTAssertEqual(mode(world.attachments + "/com.attacker"), 0o700)
    XCTAssertEqual(mode(world.attachments), 0o700)
    // The client cannot read back what the daemon returned.
    let readBack = Process()
    readBack.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    readBack.arguments = ["--reuid=\(Self.client)", "--regid=\(Self.client)", "--clear-groups", "/bin/cat", copy]
    readBack.standardOutput = FileHandle.nullDevice
    readBack.standardError = FileHandle.nullDevice
    try readBack.run()
    readBack.waitUntilExit()
    XCTAssertNotEqual(readBack.terminationStatus, 0, "uid \(Self.client) read \(copy)")
  }

  func testSizeLimitsPerAttachmentAndPerAppAreEnforcedAndLeaveNothing() throws {
    let world = try makeWorld(["--max-attachment-bytes", "1000", "--max-attachment-bytes-per-app", "2500"])
    try write(String(repeating: "a", count: 1001), to: world.own + "/big.txt", mode: 0o644)
    try write(String(repeating: "b", count: 1000), to: world.own + "/fits.txt", mode: 0o644)
    let fits = "file://" + world.own + "/fits.txt"
    let answers = try calls(
      as: Self.client, world,
      [
        Self.schedule(1, "file://" + world.own + "/big.txt"),
        Self.schedule(2, fits), Self.schedule(3, fits), Self.schedule(4, fits),
        #"{"jsonrpc":"2.0","id":5,"method":"stats","params":{}}"#,
      ])
    XCTAssertEqual(answers[0]?["error"]?["code"]?.intValue, -32006, text(answers[0]))
    XCTAssertEqual(answers[0]?["error"]?["data"]?["limit"], .string("maxAttachmentBytes"))
    XCTAssertEqual(answers[0]?["error"]?["data"]?["value"], .int(1000))
    XCTAssertNotNil(answers[1]?["result"], text(answers[1]))
    XCTAssertNotNil(answers[2]?["result"], text(answers[2]))
    XCTAssertEqual(answers[3]?["error"]?["code"]?.intValue, -32006, text(answers[3]))
    XCTAssertEqual(answers[3]?["error"]?["data"]?["limit"], .string("maxAttachmentBytesPerApp"))
    XCTAssertEqual(answers[3]?["error"]?["data"]?["value"], .int(2500))
    XCTAssertEqual(answers[4]?["result"]?["limits"]?["maxAttachmentBytes"], .int(1000))
    XCTAssertEqual(answers[4]?["result"]?["limits"]?["maxAttachmentBytesPerApp"], .int(2500))
    XCTAssertEqual(files(under: world.attachments).count, 2, "only the two accepted copies")
    // A file whose size says 0 (a /proc file) is still counted as it is read.
    let zeroSized = ["/proc/cpuinfo", "/proc/kallsyms", "/proc/mounts"].first {
      ((try? Data(contentsOf: URL(fileURLWithPath: $0)))?.count ?? 0) > 1000
    }
    let proc = try calls(as: Self.client, world, [Self.schedule(8, "file://" + (zeroSized ?? ""), app: "com.proc")])[0]
    XCTAssertEqual(proc?["error"]?["data"]?["limit"], .string("maxAttachmentBytes"), text(proc))
    XCTAssertEqual(files(under: world.attachments).count, 2, "nothing of it is left")
    // Removing a request gives its bytes back.
    let again = try calls(
      as: Self.client, world,
      [
        #"{"jsonrpc":"2.0","id":6,"method":"removePending","params":{"app":"com.attacker","identifiers":["r2"]}}"#,
        Self.schedule(7, fits),
      ])
    XCTAssertNotNil(again[1]?["result"], text(again[1]))
  }

  func testCopiesNothingRefersToAnyMoreAreRemoved() throws {
    let world = try makeWorld()
    let url = "file://" + world.own + "/public.txt"
    let answers = try calls(
      as: Self.client, world,
      [
        Self.schedule(1, url, identifier: "kept"), Self.schedule(2, url, identifier: "replaced"),
        Self.schedule(3, url, identifier: "replaced"),
        #"{"jsonrpc":"2.0","id":4,"method":"listPending","params":{"app":"com.attacker"}}"#,
      ])
    let listed = answers[3]?["result"]?["requests"]?.arrayValue ?? []
    let kept = listed.compactMap { $0["content"]?["attachments"]?[0]?["url"]?.stringValue }.compactMap {
      URL(string: $0)?.lastPathComponent
    }
    XCTAssertEqual(kept.count, 2, text(answers[3]))
    let app = world.attachments + "/com.attacker"
    func settle(_ done: ([String]) -> Bool) -> [String] {
      DaemonProcess.poll(timeout: 5) {
        self.files(under: app).sorted().joined(separator: "\n")
      } until: {
        done($0.split(separator: "\n").map(String.init))
      }.split(separator: "\n").map(String.init)
    }
    // The first copy of "replaced" goes once its replacement is durable.
    XCTAssertEqual(settle { $0.sorted() == kept.sorted() }, kept.sorted())
    let reset = try calls(
      as: Self.client, world, [#"{"jsonrpc":"2.0","id":5,"method":"reset","params":{"app":"com.attacker"}}"#])
    XCTAssertNotNil(reset[0]?["result"], text(reset[0]))
    XCTAssertEqual(settle { $0.isEmpty }, [])
    XCTAssertFalse(FileManager.default.fileExists(atPath: app), "the app's directory goes with its copies")
  }

  func testAGrowingOrHugeSparseFileIsRefusedByTheDefaultLimit() throws {
    let world = try makeWorld()
    let sparse = world.own + "/sparse.bin"
    XCTAssertTrue(FileManager.default.createFile(atPath: sparse, contents: nil))
    XCTAssertEqual(truncate(sparse, 64 << 20), 0)
    chmod(sparse, 0o644)
    let answer = try calls(as: Self.client, world, [Self.schedule(1, "file://" + sparse)])[0]
    XCTAssertEqual(answer?["error"]?["data"]?["limit"], .string("maxAttachmentBytes"), text(answer))
    XCTAssertEqual(answer?["error"]?["data"]?["value"], .int(10_485_760))
    XCTAssertEqual(files(under: world.attachments), [])
  }

  func testAFullStateFilesystemRefusesTheCopyAndKeepsServing() throws {
    try requireOtherUsers()
    let (made, reason) = try SmallFilesystem.make(bytes: 4 << 20)
    guard let filesystem = made else { throw XCTSkip(reason) }
    addTeardownBlock { filesystem.unmount() }
    let mountPoint = filesystem.path
    let world = try makeWorld(["--max-attachment-bytes", "\(128 << 20)"], state: mountPoint)
    let sparse = world.own + "/sparse.bin"
    XCTAssertTrue(FileManager.default.createFile(atPath: sparse, contents: nil))
    XCTAssertEqual(truncate(sparse, 64 << 20), 0)
    chmod(sparse, 0o644)
    let answers = try calls(
      as: Self.client, world,
      [
        Self.schedule(1, "file://" + sparse),
        #"{"jsonrpc":"2.0","id":2,"method":"ping","params":{}}"#,
        Self.schedule(3, "file://" + world.own + "/public.txt"),
      ])
    XCTAssertEqual(answers[0]?["error"]?["code"]?.intValue, -32010, text(answers[0]))
    XCTAssertEqual(answers[0]?["error"]?["data"]?["directory"], .string(mountPoint + "/attachments/com.attacker"))
    XCTAssertEqual(answers[0]?["error"]?["data"]?["error"], .string(String(cString: strerror(ENOSPC))))
    XCTAssertNotNil(answers[1]?["result"]?["now"], text(answers[1]))
    XCTAssertNotNil(answers[2]?["result"], text(answers[2]))
    XCTAssertEqual(files(under: mountPoint + "/attachments").count, 1, "only the small copy is left")
  }

  func testStoppingWhileACopyIsMadeAnswersItAndLeavesNothingHalfDone() throws {
    let world = try makeWorld(["--max-attachment-bytes", "\(256 << 20)"])
    let large = world.own + "/large.bin"
    XCTAssertTrue(FileManager.default.createFile(atPath: large, contents: nil))
    XCTAssertEqual(truncate(large, 96 << 20), 0)
    chmod(large, 0o644)
    let s = try RawSocket(path: world.socketPath)
    try s.send(Self.schedule(1, "file://" + large) + "\n")
    usleep(20_000)
    let daemon = try XCTUnwrap(world.daemon)
    kill(daemon.process.processIdentifier, SIGTERM)
    let answer = parseLine(s.readLine())
    XCTAssertTrue(daemon.waitForExit(timeout: 10))
    XCTAssertEqual(daemon.exitStatus, 0, "a clean exit")
    let left = files(under: world.attachments)
    if answer?["result"] != nil {
      XCTAssertEqual(left.count, 1, "the copy was made before the stop: \(left)")
    } else {
      XCTAssertEqual(answer?["error"]?["code"]?.intValue, -32603, text(answer))
      XCTAssertEqual(left, [], "nothing of a copy that was not kept")
    }
  }
}
