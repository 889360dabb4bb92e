import Foundation
import JSONRPC
import TestSupport
import XCTest

/// `--state` as a system service needs it: the state directory and everything in it are
/// readable by the daemon's user only, a directory others may write (or that belongs to
/// someone else) is refused at start, and a database that is empty beside its log, or
/// holds a row that cannot be read, stops the start with one line naming the file, the
/// directory and what to do.
final class StatePrivacyTests: EndToEndTestCase {
  /// A fresh directory whose modes are made removable again before it is removed.
  override func freshDirectory() throws -> String {
    let dir = try super.freshDirectory()
    // Teardown blocks run last first: this one before the removal.
    addTeardownBlock { FileModes.loosen(dir, directories: 0o700, files: 0o600) }
    return dir
  }

  /// Starts a daemon that must refuse the state: exit status 1 and, last, one line that
  /// begins `uncenterd: `, which is returned.
  private func refusal(_ dir: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let d = try stateDaemon(dir, waitForSocket: false)
    XCTAssertTrue(d.waitForExit(timeout: 10), "still running: \(d.stderr)", file: file, line: line)
    XCTAssertEqual(d.exitStatus, 1, d.stderr, file: file, line: line)
    let last = d.stderr.split(separator: "\n").last.map(String.init) ?? ""
    XCTAssertTrue(last.hasPrefix("uncenterd: "), d.stderr, file: file, line: line)
    return last
  }

  private func size(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
  }

  /// A state directory made 0755 beforehand, with files an older daemon left 0644 (its
  /// log and index after a kill -9, the lock, attachment copies): after the start every
  /// entry is 0700/0600, said in one log line, and so are the files written afterwards.
  func testReadableStateIsMadePrivateAtStart() throws {
    let dir = try freshDirectory()
    let state = dir + "/state"
    XCTAssertEqual(mkdir(state, 0o755), 0)
    chmod(state, 0o755)
    var d = try stateDaemon(dir)
    try schedule(try userConnection(d), "r", app: "com.a")
    XCTAssertTrue(d.kill9())
    try FileManager.default.createDirectory(atPath: state + "/attachments/com.a", withIntermediateDirectories: true)
    XCTAssertTrue(
      FileManager.default.createFile(atPath: state + "/attachments/com.a/photo.png", contents: Data([1, 2, 3])))
    FileModes.loosen(state, directories: 0o755, files: 0o644)
    for name in ["uncenter.db", "uncenter.db-wal", "uncenter.db-shm", "uncenter.lock", "attachments/com.a/photo.png"] {
      XCTAssertEqual(FileModes.entry(state + "/" + name)?.mode, 0o644, name)
    }

    d = try stateDaemon(dir)
    let log = d.log(containing: "event=state_tightened")
    XCTAssertTrue(log.contains("level=warn event=state_tightened dir=\(state) "), log)
    XCTAssertEqual(FileModes.notPrivate(state), [:])
    let user = try userConnection(d)
    let pending = try ok(user.call("listPending", json(#"{"app":"com.a"}"#)))
    XCTAssertEqual(pending["requests"]?[0]?["identifier"], .string("r"))
    try schedule(user, "s", app: "com.a")
    XCTAssertEqual(FileModes.notPrivate(state), [:])
    XCTAssertEqual(d.stop(), 0)
    XCTAssertEqual(d.stderr.components(separatedBy: "state_tightened").count, 2, "one line: \(d.stderr)")
  }

  /// A world-writable directory that belongs to another user: refused, named, untouched.
  func testWorldWritableDirectoryOfAnotherUserIsRefused() throws {
    guard geteuid() == 0 else { throw XCTSkip("needs root to give the directory to another user") }
    let dir = try freshDirectory()
    let state = dir + "/state"
    XCTAssertEqual(mkdir(state, 0o700), 0)
    chmod(state, 0o1777)
    XCTAssertEqual(chown(state, 65534, 65534), 0)
    let line = try refusal(dir)
    XCTAssertTrue(line.contains("state directory \(state) "), line)
    XCTAssertTrue(line.contains("chown") || line.contains("chmod"), line)
    XCTAssertEqual(FileModes.tree(state).keys.sorted(), ["."], "the daemon wrote into \(state)")
  }

  /// The daemon's own directory, but writable by others: refused with the fix.
  func testWritableDirectoryIsRefused() throws {
    let dir = try freshDirectory()
    let state = dir + "/state"
    XCTAssertEqual(mkdir(state, 0o700), 0)
    chmod(state, 0o777)
    let line = try refusal(dir)
    XCTAssertTrue(line.contains("state directory \(state) "), line)
    XCTAssertTrue(line.contains("chmod 0700 \(state)"), line)
    XCTAssertEqual(FileModes.tree(state).keys.sorted(), ["."])
  }

  /// After a kill -9 the acknowledged request is in the log beside the database; the
  /// database truncated to 0 bytes then must not start an empty state over that log.
  func testTruncatedDatabaseBesideItsLogIsRefused() throws {
    let dir = try freshDirectory()
    let state = dir + "/state"
    let d = try stateDaemon(dir)
    try schedule(try userConnection(d), "r", app: "com.a")
    XCTAssertTrue(d.kill9())
    XCTAssertEqual(truncate(state + "/uncenter.db", 0), 0)
    let log = try XCTUnwrap(size(state + "/uncenter.db-wal"))
    XCTAssertGreaterThan(log, 0)
    let line = try refusal(dir)
    XCTAssertTrue(line.contains("\(state)/uncenter.db "), line)
    XCTAssertTrue(line.contains("state directory \(state)"), line)
    XCTAssertTrue(line.contains("backup"), line)
    XCTAssertEqual(size(state + "/uncenter.db"), 0)
    XCTAssertEqual(size(state + "/uncenter.db-wal"), log)
  }

  /// A stored row that does not decode: the line names the database, the directory and
  /// what to do, besides the row.
  func testCorruptRowNamesTheDatabaseTheDirectoryAndWhatToDo() throws {
    let dir = try freshDirectory()
    let state = dir + "/state"
    let d = try stateDaemon(dir)
    try schedule(try userConnection(d), "r", app: "com.a")
    XCTAssertEqual(d.stop(), 0)
    let corrupted = try Python.run(
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE rows SET value=X'7B7B' WHERE tbl='app'\"); c.commit(); c.close()",
      state + "/uncenter.db")
    XCTAssertEqual(corrupted, 0)
    let line = try refusal(dir)
    XCTAssertTrue(line.contains("corrupt"), line)
    XCTAssertTrue(line.contains("\(state)/uncenter.db"), line)
    XCTAssertTrue(line.contains("state directory \(state)"), line)
    XCTAssertTrue(line.contains("backup"), line)
  }
}
