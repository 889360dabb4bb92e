import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// Attachments are read with the caller's rights, never the daemon's: clients of other
/// uids name files only root may read, through links, `..` and percent-encodings, and
/// the daemon keeps nothing of them; the answers keep the connection's order.
final class AttachmentTrustTests: AttachmentTestCase {
  // MARK: other uids

  func testAnotherUidCannotAttachWhatItCannotRead() throws {
    let world = try makeWorld()
    let secret = world.secret
    let encoded = "file://localhost" + secret.replacingOccurrences(of: "/secret", with: "/%73%65cret")
    let dotted = "file://" + world.own + "/../root-only/secret"
    let urls = [
      "file://" + secret, "file:///etc/shadow", "file://" + world.own + "/link", dotted, encoded,
      "file://LOCALHOST" + secret,
    ]
    let answers = try calls(as: Self.client, world, urls.enumerated().map { Self.schedule($0 + 1, $1) })
    for (url, answer) in zip(urls, answers) {
      XCTAssertEqual(answer?["error"]?["code"]?.intValue, -32602, "\(url): \(text(answer))")
      XCTAssertEqual(answer?["error"]?["data"]?["field"]?.stringValue, "content.attachments[0].url", url)
    }
    assertRefused(answers[2], contains: "symbolic link")
    // A FIFO of its own: refused at once (opened without blocking), not waited on.
    XCTAssertEqual(mkfifo(world.own + "/fifo", 0o644), 0)
    XCTAssertEqual(lchown(world.own + "/fifo", uid_t(Self.client), gid_t(Self.client)), 0)
    let fifo = try calls(as: Self.client, world, [Self.schedule(7, "file://" + world.own + "/fifo")])[0]
    assertRefused(fifo, contains: "is not a regular file")
    XCTAssertEqual(
      files(under: world.attachments).filter { !$0.hasSuffix("fifo") }, [], "nothing copied into the store")
    let listed = try calls(
      as: Self.client, world,
      [#"{"jsonrpc":"2.0","id":9,"method":"listPending","params":{"app":"com.attacker"}}"#])
    XCTAssertEqual(listed[0]?["result"]?["requests"], .array([]), text(listed[0]))
  }

  func testAPathTheCallerCannotReachGetsTheSameAnswerWhetherOrNotItExists() throws {
    let world = try makeWorld()
    let path = world.directory + "/root-only/maybe"
    let missing = try calls(as: Self.client, world, [Self.schedule(1, "file://" + path)])[0]
    try write("x", to: path, mode: 0o600)
    let unreadable = try calls(as: Self.client, world, [Self.schedule(2, "file://" + path)])[0]
    assertRefused(missing)
    assertRefused(unreadable)
    XCTAssertEqual(
      missing?["error"]?["message"], unreadable?["error"]?["message"], "missing and unreadable must not differ")
    XCTAssertEqual(missing?["error"]?["data"], unreadable?["error"]?["data"])
    // A directory the caller may not search hides what is in it the same way.
    chmod(world.directory + "/root-only", 0o700)
    let hidden = try calls(as: Self.client, world, [Self.schedule(3, "file://" + path)])[0]
    XCTAssertEqual(hidden?["error"]?["message"], missing?["error"]?["message"])
    XCTAssertEqual(files(under: world.attachments), [])
  }

  func testTheCallersOwnReadableFileIsCopiedAsItsBytes() throws {
    let world = try makeWorld()
    let answers = try calls(
      as: Self.client, world,
      [
        Self.schedule(1, "file://" + world.own + "/public.txt"),
        #"{"jsonrpc":"2.0","id":2,"method":"listPending","params":{"app":"com.attacker"}}"#,
      ])
    XCTAssertEqual(answers[0]?["result"]?["scheduled"], .bool(true), text(answers[0]))
    let url = answers[1]?["result"]?["requests"]?[0]?["content"]?["attachments"]?[0]?["url"]?.stringValue ?? ""
    let copy = try XCTUnwrap(URL(string: url)?.path)
    XCTAssertTrue(copy.hasPrefix(world.attachments + "/com.attacker/"), copy)
    XCTAssertEqual(try String(contentsOfFile: copy, encoding: .utf8), "public")
  }

  func testASymlinkSwappedInDuringABurstNeverYieldsTheSecret() throws {
    let world = try makeWorld()
    let target = world.own + "/swap.txt"
    try write("public", to: target, mode: 0o644)
    let done = Flag()
    let (own, secret) = (world.own, world.secret)
    let swapper = Thread {
      var n = 0
      while !done.isSet {
        n += 1
        let staged = own + "/staged-\(n % 2)"
        unlink(staged)
        if n % 2 == 0 {
          _ = symlink(secret, staged)
        } else {
          let fd = open(staged, O_WRONLY | O_CREAT | O_EXCL, 0o644)
          _ = Glibc.write(fd, "public", 6)
          close(fd)
        }
        rename(staged, target)
      }
    }
    swapper.start()
    defer { done.set() }
    let burst = (1...300).map { Self.schedule($0, "file://" + target) }
    let answers = try calls(as: Self.client, world, burst)
    done.set()
    var accepted = 0
    for answer in answers {
      if answer?["result"] != nil {
        accepted += 1
      } else {
        XCTAssertEqual(answer?["error"]?["code"]?.intValue, -32602, text(answer))
      }
    }
    for name in files(under: world.attachments) {
      let path = world.attachments + "/" + name
      var info = stat()
      XCTAssertEqual(lstat(path, &info), 0)
      XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG, "\(name) is not a regular file")
      let bytes = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
      XCTAssertFalse(bytes.contains("TOP-SECRET"), "\(name) holds the secret")
    }
    XCTAssertGreaterThan(accepted, 0, "some requests named the regular file")
  }

  // MARK: order and other ways in

  func testAnswersKeepTheirOrderOnTheConnection() throws {
    let world = try makeWorld()
    let s = try RawSocket(path: world.socketPath)
    let url = "file://" + world.own + "/public.txt"
    // Both in one write: listPending must see the request the first one added.
    try s.send(
      Self.schedule(1, url, app: "com.order") + "\n"
        + #"{"jsonrpc":"2.0","id":2,"method":"listPending","params":{"app":"com.order"}}"# + "\n"
        + "[" + Self.schedule(3, url, app: "com.order")
        + #",{"jsonrpc":"2.0","id":4,"method":"listPending","params":{"app":"com.order"}}]"# + "\n")
    let first = parseLine(s.readLine())
    let second = parseLine(s.readLine())
    let batch = parseLine(s.readLine())
    XCTAssertEqual(first?["id"], .number("1"), text(first))
    XCTAssertEqual(second?["result"]?["requests"]?.arrayValue?.count, 1, text(second))
    XCTAssertEqual(batch?[0]?["id"], .number("3"), text(batch))
    XCTAssertEqual(batch?[1]?["result"]?["requests"]?.arrayValue?.count, 2, text(batch))
  }

  func testOtherConnectionsAreServedWhileACopyIsMade() throws {
    let world = try makeWorld([
      "--max-attachment-bytes", "\(256 << 20)", "--max-attachment-bytes-per-app", "\(256 << 20)",
    ])
    let large = world.own + "/large.bin"
    XCTAssertTrue(FileManager.default.createFile(atPath: large, contents: nil))
    XCTAssertEqual(truncate(large, 192 << 20), 0)
    chmod(large, 0o644)
    let copying = try RawSocket(path: world.socketPath)
    try copying.send(Self.schedule(1, "file://" + large, app: "com.large") + "\n")
    let other = try RawSocket(path: world.socketPath)
    for i in 1...20 {
      try other.send(#"{"jsonrpc":"2.0","id":\#(i),"method":"ping","params":{}}"# + "\n")
      XCTAssertNotNil(parseLine(other.readLine())?["result"]?["now"])
    }
    // The copy (192 MiB) takes far longer than 20 pings: the loop served them meanwhile.
    XCTAssertNil(copying.readLine(timeout: 0.001), "the copy was answered before the pings")
    XCTAssertNotNil(parseLine(copying.readLine(timeout: 30))?["result"])
  }

  func testAServiceExtensionsContentIsReadAsTheExtension() throws {
    let world = try makeWorld()
    try write(Self.extensionScript, to: world.directory + "/extension.py", mode: 0o644)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    p.arguments = [
      "--reuid=\(Self.client)", "--regid=\(Self.client)", "--clear-groups", "/usr/bin/python3",
      world.directory + "/extension.py", world.socketPath, "com.attacker", "file://" + world.secret,
    ]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let reader = out.fileHandleForReading
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains("ready\n") {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      seen.append(chunk)
    }
    let root = try RPCConnection(path: world.socketPath)
    _ = try ok(
      root.call(
        "pushRemote",
        json(#"{"app":"com.attacker","payload":{"aps":{"alert":{"title":"t","body":"b"},"mutable-content":1}}}"#)))
    seen.append(reader.readDataToEndOfFile())
    p.waitUntilExit()
    let lines = String(decoding: seen, as: UTF8.self).split(separator: "\n")
    let answer = parseLine(lines.last.map { Array($0.utf8) })
    assertRefused(answer)
    XCTAssertEqual(files(under: world.attachments), [])
  }

  // MARK: a daemon that cannot take another identity

  func testADaemonWithoutPrivilegeReadsOnlyForItsOwnUid() throws {
    try requireOtherUsers()
    let directory = try freshDirectory()
    chmod(directory, 0o755)
    let home = directory + "/daemon"
    XCTAssertEqual(mkdir(home, 0o700), 0)
    XCTAssertEqual(chown(home, uid_t(Self.client), gid_t(Self.client)), 0)
    try write("shared", to: directory + "/shared.txt", mode: 0o644)
    try write(Self.script, to: directory + "/client.py", mode: 0o644)
    let socket = home + "/d.sock"
    let daemon = try DaemonProcess(
      arguments: ["--socket-mode", "0666", "--clock", "manual=2026-01-01T08:00:00Z"], socketPath: socket,
      directory: directory, launch: .asUser(uid_t(Self.client)))
    addTeardownBlock { daemon.stop() }
    chmod(home, 0o755)
    let world = World(socketPath: socket, directory: directory)
    let url = "file://" + directory + "/shared.txt"
    let own = try calls(as: Self.client, world, [Self.schedule(1, url, app: "com.own")])[0]
    XCTAssertEqual(own?["result"]?["scheduled"], .bool(true), text(own))
    let other = try calls(as: Self.client - 1, world, [Self.schedule(2, url, app: "com.other")])[0]
    assertRefused(other, contains: "uid \(Self.client - 1)")
  }
}
