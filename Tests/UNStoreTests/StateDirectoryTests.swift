import Foundation
import TestSupport
import UNStore
import XCTest

/// The state directory is private whatever the umask, checked before anything in it is
/// opened (its owner and who may write it), and a database that is gone or empty beside
/// the daemon's other state files is refused instead of replaced.
final class StateDirectoryTests: XCTestCase {
  private var base = ""

  override func setUpWithError() throws {
    var template = Array("/tmp/unstate-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw HarnessError("mkdtemp failed")
    }
    base = String(cString: made)
  }

  override func tearDown() {
    FileModes.loosen(base, directories: 0o700, files: 0o600)
    try? FileManager.default.removeItem(atPath: base)
  }

  private let row = StoredRow(table: "t", app: "a", key: "k", value: Array("v".utf8))

  private func refusal(_ directory: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    do {
      let store = try SQLiteStore(directory: directory, durability: .normal)
      store.close()
      XCTFail("\(directory) was accepted", file: file, line: line)
      return ""
    } catch {
      return "\(error)"
    }
  }

  private func size(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
  }

  /// The directory and every file the store makes (the database, its log and index, the
  /// lock) are 0700/0600 under a umask that would leave them open, and so are the log and
  /// index SQLite makes again when the store is reopened.
  func testNewStateIsPrivateWhateverTheUmask() throws {
    for mask: mode_t in [0, 0o022, 0o077] {
      let old = umask(mask)
      defer { umask(old) }
      let directory = base + "/umask-\(mask)/state"
      var store = try SQLiteStore(directory: directory, durability: .normal)
      try store.commit([.put(row)])
      for name in [".", "uncenter.db", "uncenter.db-wal", "uncenter.db-shm", "uncenter.lock"] {
        XCTAssertNotNil(FileModes.tree(directory)[name], "umask \(mask): no \(name)")
      }
      XCTAssertEqual(FileModes.notPrivate(directory), [:], "umask \(mask)")
      store.close()
      store = try SQLiteStore(directory: directory, durability: .normal)
      try store.commit([.put(row)])
      XCTAssertNotNil(FileModes.tree(directory)["uncenter.db-shm"])
      XCTAssertEqual(FileModes.notPrivate(directory), [:], "umask \(mask), reopened")
      XCTAssertEqual(try store.loadAll(), [row])
      store.close()
    }
  }

  /// A state left readable (a directory made 0755 by an operator's `mkdir`, files 0644 by
  /// an older daemon) is made private when it is opened: directories 0700, files 0600,
  /// attachments included.  A symbolic link inside is left as it is and never followed.
  func testReadableStateIsTightenedWithoutFollowingLinks() throws {
    let directory = base + "/state"
    let store = try SQLiteStore(directory: directory, durability: .normal)
    try store.commit([.put(row)])
    store.close()
    try FileManager.default.createDirectory(atPath: directory + "/attachments/com.a", withIntermediateDirectories: true)
    XCTAssertTrue(
      FileManager.default.createFile(atPath: directory + "/attachments/com.a/x.png", contents: Data([1, 2, 3])))
    XCTAssertTrue(FileManager.default.createFile(atPath: base + "/outside", contents: Data([4])))
    chmod(base + "/outside", 0o644)
    try FileManager.default.createSymbolicLink(
      atPath: directory + "/attachments/com.a/link.png", withDestinationPath: base + "/outside")
    FileModes.loosen(directory, directories: 0o755, files: 0o644)
    XCTAssertEqual(FileModes.notPrivate(directory).count, 6)

    let reopened = try SQLiteStore(directory: directory, durability: .normal)
    try reopened.commit([.put(row)])
    XCTAssertEqual(FileModes.notPrivate(directory), [:])
    XCTAssertEqual(FileModes.entry(directory + "/attachments/com.a/link.png")?.isSymlink, true)
    XCTAssertEqual(FileModes.entry(base + "/outside")?.mode, 0o644, "the link was followed")
    XCTAssertEqual(try reopened.loadAll(), [row])
    reopened.close()
  }

  /// Whoever may write the directory may have put anything in it: refused, untouched,
  /// with the command that fixes it.
  func testDirectoryWritableByGroupOrOthersIsRefused() throws {
    for mode: mode_t in [0o770, 0o730, 0o707, 0o777, 0o1777] {
      let directory = base + "/w\(String(mode, radix: 8))"
      XCTAssertEqual(mkdir(directory, 0o700), 0)
      chmod(directory, mode)
      let message = refusal(directory)
      XCTAssertTrue(message.contains("state directory \(directory) "), message)
      XCTAssertTrue(message.contains("chmod 0700 \(directory)"), message)
      XCTAssertEqual(FileModes.tree(directory).keys.sorted(), ["."], "something was made in \(directory)")
      XCTAssertEqual(FileModes.entry(directory)?.mode, mode)
    }
  }

  func testDirectoryOwnedByAnotherUserIsRefused() throws {
    guard geteuid() == 0 else { throw XCTSkip("needs root to give a directory to another user") }
    let directory = base + "/theirs"
    XCTAssertEqual(mkdir(directory, 0o700), 0)
    XCTAssertEqual(chown(directory, 65534, 65534), 0)
    let message = refusal(directory)
    XCTAssertTrue(message.contains("state directory \(directory) "), message)
    XCTAssertTrue(message.contains("uid 65534"), message)
    XCTAssertTrue(message.contains("chown"), message)
    XCTAssertEqual(FileModes.tree(directory).keys.sorted(), ["."])
  }

  /// A file of another user inside the directory cannot be made private by the daemon.
  func testFileOwnedByAnotherUserIsRefused() throws {
    guard geteuid() == 0 else { throw XCTSkip("needs root to give a file to another user") }
    let directory = base + "/state"
    let store = try SQLiteStore(directory: directory, durability: .normal)
    try store.commit([.put(row)])
    store.close()
    XCTAssertEqual(chown(directory + "/uncenter.db", 65534, 65534), 0)
    let message = refusal(directory)
    XCTAssertTrue(message.contains("\(directory)/uncenter.db"), message)
    XCTAssertTrue(message.contains("uid 65534"), message)
    XCTAssertTrue(message.contains("chown"), message)
  }

  /// A database truncated to 0 bytes, with or without its log beside it, is refused and
  /// kept as it is: opening it would start an empty state and write over the log.
  func testEmptyDatabaseIsRefusedAndLeftAsItIs() throws {
    let directory = base + "/state"
    let store = try SQLiteStore(directory: directory, durability: .normal)
    try store.commit([.put(row)])
    let copy = base + "/copy"
    XCTAssertEqual(mkdir(copy, 0o700), 0)
    try FileManager.default.copyItem(atPath: directory + "/uncenter.db-wal", toPath: copy + "/uncenter.db-wal")
    store.close()
    XCTAssertEqual(truncate(directory + "/uncenter.db", 0), 0)
    XCTAssertTrue(FileManager.default.createFile(atPath: copy + "/uncenter.db", contents: Data()))
    let log = size(copy + "/uncenter.db-wal")
    for dir in [directory, copy] {
      let message = refusal(dir)
      XCTAssertTrue(message.contains("\(dir)/uncenter.db "), message)
      XCTAssertTrue(message.contains("state directory \(dir)"), message)
      XCTAssertTrue(message.contains("backup"), message)
      XCTAssertEqual(size(dir + "/uncenter.db"), 0, "the empty database was written")
    }
    XCTAssertEqual(size(copy + "/uncenter.db-wal"), log, "the log was changed")
  }

  /// The database gone from a directory that holds the daemon's other state files.
  func testMissingDatabaseBesideOtherStateFilesIsRefused() throws {
    for name in ["uncenter.lock", "uncenter.db-wal", "uncenter.db-shm", "attachments"] {
      let directory = base + "/\(name)-only"
      XCTAssertEqual(mkdir(directory, 0o700), 0)
      if name == "attachments" {
        XCTAssertEqual(mkdir(directory + "/" + name, 0o700), 0)
      } else {
        XCTAssertTrue(
          FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(repeating: 1, count: 32)))
      }
      let message = refusal(directory)
      XCTAssertTrue(message.contains("\(directory)/uncenter.db "), message)
      XCTAssertTrue(message.contains("state directory \(directory)"), message)
      XCTAssertTrue(message.contains(name), message)
      XCTAssertNil(FileModes.entry(directory + "/uncenter.db"), "a new database was made beside \(name)")
    }
  }

  /// An empty directory, or one holding only files that are not the daemon's, starts a
  /// new state.
  func testFreshDirectoryStartsANewState() throws {
    let empty = base + "/empty"
    XCTAssertEqual(mkdir(empty, 0o700), 0)
    let other = base + "/other"
    XCTAssertEqual(mkdir(other, 0o700), 0)
    XCTAssertTrue(FileManager.default.createFile(atPath: other + "/README", contents: Data("notes".utf8)))
    for directory in [empty, other] {
      let store = try SQLiteStore(directory: directory, durability: .normal)
      try store.commit([.put(row)])
      store.close()
      XCTAssertEqual(try SQLiteStore(directory: directory, durability: .normal).loadAll(), [row])
    }
  }

  /// `--state` naming a symbolic link (systemd's `DynamicUser=` makes one): the directory
  /// it points to is checked and made private.
  func testStateDirectoryThroughALinkIsCheckedAtItsTarget() throws {
    let target = base + "/target"
    XCTAssertEqual(mkdir(target, 0o700), 0)
    chmod(target, 0o755)
    try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: "target")
    let store = try SQLiteStore(directory: base + "/link", durability: .normal)
    try store.commit([.put(row)])
    store.close()
    XCTAssertEqual(FileModes.notPrivate(target), [:])

    let open = base + "/open"
    XCTAssertEqual(mkdir(open, 0o700), 0)
    chmod(open, 0o777)
    try FileManager.default.createSymbolicLink(atPath: base + "/openlink", withDestinationPath: "open")
    let message = refusal(base + "/openlink")
    XCTAssertTrue(message.contains(base + "/openlink"), message)
    XCTAssertTrue(message.contains("chmod 0700"), message)
  }

  /// The files the daemon opens by name are its own, in the directory: a link in their
  /// place is refused and its target left alone.
  func testLinkInPlaceOfTheDatabaseIsRefused() throws {
    let directory = base + "/state"
    XCTAssertEqual(mkdir(directory, 0o700), 0)
    XCTAssertTrue(FileManager.default.createFile(atPath: base + "/elsewhere.db", contents: Data()))
    chmod(base + "/elsewhere.db", 0o644)
    try FileManager.default.createSymbolicLink(
      atPath: directory + "/uncenter.db", withDestinationPath: base + "/elsewhere.db")
    let message = refusal(directory)
    XCTAssertTrue(message.contains("\(directory)/uncenter.db "), message)
    XCTAssertTrue(message.contains("symbolic link"), message)
    XCTAssertEqual(size(base + "/elsewhere.db"), 0)
    XCTAssertEqual(FileModes.entry(base + "/elsewhere.db")?.mode, 0o644)
  }

  /// A database that fails SQLite's check: the message names the file and the directory,
  /// and says what to do.
  func testCorruptDatabaseNamesTheFileTheDirectoryAndWhatToDo() throws {
    let directory = base + "/state"
    XCTAssertEqual(mkdir(directory, 0o700), 0)
    XCTAssertTrue(
      FileManager.default.createFile(atPath: directory + "/uncenter.db", contents: Data(repeating: 0x42, count: 8192)))
    let message = refusal(directory)
    XCTAssertTrue(message.contains("\(directory)/uncenter.db"), message)
    XCTAssertTrue(message.contains("state directory \(directory)"), message)
    XCTAssertTrue(message.contains("backup"), message)
  }
}

extension StateDirectoryTests {
  /// A start cut short while it made a new database leaves `uncenter.db.new` (made before
  /// the lock) and maybe SQLite's files beside it: the next start makes the database
  /// anew.  Once there is a database, such leftovers are removed.
  func testInterruptedCreationStartsAgainAndLeftoversGo() throws {
    let directory = base + "/state"
    XCTAssertEqual(mkdir(directory, 0o700), 0)
    for name in ["uncenter.lock", "uncenter.db.new", "uncenter.db.new-journal"] {
      XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data()))
    }
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: directory + "/uncenter.db.new-wal", contents: Data(repeating: 9, count: 100)))
    var store = try SQLiteStore(directory: directory, durability: .normal)
    try store.commit([.put(row)])
    store.close()
    XCTAssertEqual(
      FileModes.tree(directory).keys.sorted(), [".", "uncenter.db", "uncenter.lock"], "\(FileModes.tree(directory))")
    XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/uncenter.db.new", contents: Data()))
    store = try SQLiteStore(directory: directory, durability: .normal)
    XCTAssertNil(FileModes.entry(directory + "/uncenter.db.new"))
    XCTAssertEqual(try store.loadAll(), [row])
    store.close()
  }

  /// What was tightened is reported once (the daemon logs it): the directory's mode
  /// before, and how many entries under it changed; nothing when all was private.
  func testTighteningIsReported() throws {
    let directory = base + "/state"
    var store = try SQLiteStore(directory: directory, durability: .normal)
    XCTAssertTrue(store.tightened.isEmpty)
    store.close()
    XCTAssertEqual(mkdir(directory + "/attachments", 0o700), 0)
    FileModes.loosen(directory, directories: 0o750, files: 0o640)
    store = try SQLiteStore(directory: directory, durability: .normal)
    XCTAssertEqual(store.tightened.directoryMode, 0o750)
    XCTAssertEqual(store.tightened.entries, 3, "uncenter.db, uncenter.lock, attachments")
    store.close()
    store = try SQLiteStore(directory: directory, durability: .normal)
    XCTAssertTrue(store.tightened.isEmpty)
    store.close()
  }
}
