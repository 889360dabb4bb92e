#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  func commit(_ list: RowBuffer) throws(StoreError)
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
  public func commit(_ list: RowBuffer) throws(StoreError) { try commit(list.changes) }
}

/// A row: which table, which app (empty for daemon-wide rows), which key, what bytes.
/// The table, app and key are the row's address as their exact bytes: rows are equal
/// when those bytes are (`String ==` would take two spellings of one text, NFC and NFD,
/// for one key), and a key may hold any character, U+0000 included.
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

  public static func == (a: StoredRow, b: StoredRow) -> Bool {
    sameUTF8(a.table, b.table) && sameUTF8(a.app, b.app) && sameUTF8(a.key, b.key) && a.value == b.value
  }

  public func hash(into hasher: inout Hasher) {
    for part in [table, app, key] {
      hasher.combine(part.utf8.count)
      for byte in part.utf8 { hasher.combine(byte) }
    }
    hasher.combine(value)
  }

  /// The order SQLite's `BINARY` collation gives (table, app, key): their bytes.
  static func precedes(_ a: StoredRow, _ b: StoredRow) -> Bool {
    for (x, y) in [(a.table, b.table), (a.app, b.app), (a.key, b.key)] where !sameUTF8(x, y) {
      return x.utf8.lexicographicallyPrecedes(y.utf8)
    }
    return false
  }
}

/// Whether two strings have the same UTF-8 bytes (`==` is canonical equivalence: an NFC
/// and an NFD spelling of one text would be one key).
@inline(__always)
func sameUTF8(_ a: String, _ b: String) -> Bool {
  // The same representation (the same small string, or the same storage) holds the same
  // bytes: decided from the two words, without reading the text.
  if unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self) { return true }
  guard a.utf8.count == b.utf8.count else { return false }
  let same = a.utf8.withContiguousStorageIfAvailable { x in
    b.utf8.withContiguousStorageIfAvailable { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
  }
  return (same ?? nil) ?? a.utf8.elementsEqual(b.utf8)
}

/// A numbered row's value in a `StoreChange`: bytes, or anything the store can write as
/// bytes when it writes the row.  (The daemon's batches write their rows straight into
/// a `RowBuffer` on the loop instead.)
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
  private var rows: [[UInt8]: StoredRow] = [:]

  public init() {}

  /// A keyed row's id: a 0, then the table, app and key, each preceded by its length, so
  /// that no two addresses share an id whatever bytes they hold.
  private static func id(_ table: String, _ app: String, _ key: String) -> [UInt8] {
    var id: [UInt8] = [0]
    for part in [table, app, key] { append(part, to: &id) }
    return id
  }

  /// A numbered row's id: a 1, the table (length first) and the number.
  private static func id(_ table: String, number: UInt64) -> [UInt8] {
    var id: [UInt8] = [1]
    append(table, to: &id)
    withUnsafeBytes(of: number.littleEndian) { id.append(contentsOf: $0) }
    return id
  }

  private static func append(_ part: String, to id: inout [UInt8]) {
    withUnsafeBytes(of: UInt64(part.utf8.count).littleEndian) { id.append(contentsOf: $0) }
    id.append(contentsOf: part.utf8)
  }

  public func loadAll() throws(StoreError) -> [StoredRow] {
    rows.values.sorted(by: StoredRow.precedes)
  }

  public func commit(_ changes: [StoreChange]) throws(StoreError) {
    for change in changes {
      switch change {
      case .put(let row): rows[Self.id(row.table, row.app, row.key)] = row
      case .delete(let table, let app, let key): rows[Self.id(table, app, key)] = nil
      case .deleteApp(let app): rows = rows.filter { $0.key.first == 1 || !sameUTF8($0.value.app, app) }
      case .putNumbered(let table, let app, let number, let value):
        var bytes: [UInt8] = []
        value.write(into: &bytes)
        rows[Self.id(table, number: number)] = StoredRow(table: table, app: app, key: String(number), value: bytes)
      case .deleteNumbered(let table, let number): rows[Self.id(table, number: number)] = nil
      }
    }
  }

  public func close() {}
}
