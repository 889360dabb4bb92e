/// Where the center's state lives between runs.  Rows are opaque blobs addressed by
/// (table, app, key); the server decides what they contain, so the store has one job:
/// keep rows, and apply a batch of changes atomically.
///
/// Used only from the daemon's loop thread; not `Sendable`.
public protocol StateStore: AnyObject {
  /// Every stored row, for start-up.
  func loadAll() throws(StoreError) -> [StoredRow]
  /// Applies all changes in one transaction: all or nothing.
  func commit(_ changes: [StoreChange]) throws(StoreError)
  /// The same, from the writer's list (`StoreWriter`).
  func commit(_ list: ChangeList) throws(StoreError)
  /// Work that may follow a commit and that no answer waits for: the commit is already
  /// durable (`StoreWriter` calls it after reporting the commit).
  func maintain()
  /// Gives back the room set aside for a commit that failed for lack of space (a
  /// `DiskReserve`); false when there was none to give.
  func releaseReserve() -> Bool
  /// Sets that room aside again; throws while the file system has none.
  func restoreReserve() throws(StoreError)
  func close()
}

extension StateStore {
  public func maintain() {}
  public func releaseReserve() -> Bool { false }
  public func restoreReserve() throws(StoreError) {}
  public func commit(_ list: ChangeList) throws(StoreError) { try commit(list.changes) }
}

/// A row: which table, which app (empty for daemon-wide rows), which key, what bytes.
public struct StoredRow: Sendable, Hashable {
  public var table: String
  public var app: String
  public var key: String
  public var value: [UInt8]

  public init(table: String, app: String, key: String, value: [UInt8]) {
    self.table = table
    self.app = app
    self.key = key
    self.value = value
  }
}

/// A numbered row's value in a `StoreChange`: bytes, or anything the store can write as
/// bytes when it writes the row.  (The daemon's batches write their rows straight into
/// a `ChangeList` on the loop instead.)
public protocol StoredValue: Sendable {
  /// Appends the row's bytes (called once, by the store, on the thread that writes).
  func write(into bytes: inout [UInt8])
}

extension Array: StoredValue where Element == UInt8 {
  public func write(into bytes: inout [UInt8]) { bytes.append(contentsOf: self) }
}

/// One change of a commit.
public enum StoreChange: Sendable {
  case put(StoredRow)
  case delete(table: String, app: String, key: String)
  /// Every keyed row of the app, in every table (`reset`).  Numbered rows are left to
  /// `deleteNumbered`: the server knows their numbers, so a reset costs in proportion to
  /// the app's own rows instead of a scan of every numbered row.
  case deleteApp(String)
  /// A row addressed by a number the server assigns once and never reuses, unique across
  /// all tables (a pending request's addition sequence), instead of a key.  Kept in number order, new rows are
  /// appended rather than slotted in among the others, so a commit of many new rows
  /// touches few pages.  Loaded with the number as its key.
  case putNumbered(table: String, app: String, number: UInt64, value: any StoredValue)
  case deleteNumbered(table: String, number: UInt64)
}

/// Why the store cannot go on: the message says what and where.
public struct StoreError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// The default: state in memory only, gone with the process.  It still keeps the rows it
/// is given, so a restart can be simulated in tests by loading them into a new daemon.
public final class MemoryStore: StateStore {
  private var rows: [String: StoredRow] = [:]

  public init() {}

  private static func id(_ table: String, _ app: String, _ key: String) -> String { "\(table)\u{0}\(app)\u{0}\(key)" }
  /// What the id of every numbered row contains (its app part is U+0001).
  private static let numberedMark = "\u{0}\u{1}\u{0}"

  public func loadAll() throws(StoreError) -> [StoredRow] {
    rows.values.sorted { ($0.table, $0.app, $0.key) < ($1.table, $1.app, $1.key) }
  }

  public func commit(_ changes: [StoreChange]) throws(StoreError) {
    for change in changes {
      switch change {
      case .put(let row): rows[Self.id(row.table, row.app, row.key)] = row
      case .delete(let table, let app, let key): rows[Self.id(table, app, key)] = nil
      case .deleteApp(let app): rows = rows.filter { $0.value.app != app || $0.key.contains(Self.numberedMark) }
      case .putNumbered(let table, let app, let number, let value):
        var bytes: [UInt8] = []
        value.write(into: &bytes)
        rows[Self.id(table, "\u{1}", String(number))] = StoredRow(
          table: table, app: app, key: String(number), value: bytes)
      case .deleteNumbered(let table, let number): rows[Self.id(table, "\u{1}", String(number))] = nil
      }
    }
  }

  public func close() {}
}
