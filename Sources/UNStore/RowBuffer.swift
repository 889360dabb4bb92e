/// A commit's changes: numbered rows are written straight into one byte buffer (their
/// table, app and value side by side) and recorded as plain entries that point into it,
/// so a commit of hundreds of rows makes no per-row allocation, existential or enum
/// copy, and the store binds each row's parts from the buffer without copying them
/// again.  The rare keyed changes are kept as they are.
///
/// The daemon's loop writes one per batch and hands it to the store's writer thread
/// (`StoreWriter.submit`), which gathers the batches queued since its last commit into a
/// list of its own, reused from commit to commit (`removeAll` keeps the capacity).  Only
/// bytes and values cross between the threads: nothing in a list refers to memory the
/// loop goes on using.
///
/// The last form of a durable change before the store: made from `BatchRows` on the
/// loop, committed by `StoreWriter` (after `ChangeJournal` and `RecordedChanges`).
public struct RowBuffer: StoreBatch {
  /// One change, in commit order.  Trivial (no references), so the list copies and frees
  /// without reference counting.
  struct Entry {
    enum Kind: UInt8 { case put, delete, keyed }
    var kind: Kind
    /// The row's number (`put`, `delete`), or the index in `keyed`.
    var number: UInt64
    var table: Range<Int>
    var app: Range<Int>
    var value: Range<Int>
  }

  var entries: [Entry] = []
  /// Every numbered row's table, app and value bytes.
  var bytes: [UInt8] = []
  var keyed: [StoreChange] = []
  /// The last table and app written into `bytes`: rows come in runs of one table and one
  /// app, so their names are copied once per run, not once per row.  A name is the same
  /// only if its bytes are (`==` would take an NFD spelling for the NFC one).
  private var lastTable: (name: String, at: Range<Int>)?
  private var lastApp: (name: String, at: Range<Int>)?

  public init() {}

  /// An empty list with room for about `rows` numbered rows of `rowBytes` bytes each.
  public init(rows: Int, rowBytes: Int) {
    entries.reserveCapacity(rows)
    bytes.reserveCapacity(rows * rowBytes)
  }

  public var isEmpty: Bool { entries.isEmpty }

  /// The bytes the list's buffers hold room for.
  var capacityBytes: Int {
    bytes.capacity + entries.capacity * MemoryLayout<Entry>.stride
      + keyed.capacity * MemoryLayout<StoreChange>.stride
  }

  /// Forgets the changes, keeping the buffers for the next commit.
  public mutating func removeAll() {
    entries.removeAll(keepingCapacity: true)
    bytes.removeAll(keepingCapacity: true)
    keyed.removeAll(keepingCapacity: true)
    lastTable = nil
    lastApp = nil
  }

  public mutating func append(_ change: StoreChange) {
    switch change {
    case .putNumbered(let table, let app, let number, let value):
      putNumbered(table: table, app: app, number: number) { value.write(into: &$0) }
    case .deleteNumbered(let table, let number):
      deleteNumbered(table: table, number: number)
    default:
      entries.append(Entry(kind: .keyed, number: UInt64(keyed.count), table: 0..<0, app: 0..<0, value: 0..<0))
      keyed.append(change)
    }
  }

  /// A numbered row whose value `write` appends to the bytes it is given (and nothing
  /// else: it must only append).
  public mutating func putNumbered(
    table: String, app: String, number: UInt64, _ write: (inout [UInt8]) -> Void
  ) {
    let t = tableRange(table)
    let a = appRange(app)
    let start = bytes.count
    write(&bytes)
    entries.append(Entry(kind: .put, number: number, table: t, app: a, value: start..<bytes.count))
  }

  public mutating func deleteNumbered(table: String, number: UInt64) {
    entries.append(Entry(kind: .delete, number: number, table: tableRange(table), app: 0..<0, value: 0..<0))
  }

  private mutating func tableRange(_ name: String) -> Range<Int> {
    if let last = lastTable, sameUTF8(last.name, name) { return last.at }
    let at = copy(name)
    lastTable = (name, at)
    return at
  }

  private mutating func appRange(_ name: String) -> Range<Int> {
    if let last = lastApp, sameUTF8(last.name, name) { return last.at }
    let at = copy(name)
    lastApp = (name, at)
    return at
  }

  private mutating func copy(_ text: String) -> Range<Int> {
    let start = bytes.count
    bytes.append(contentsOf: text.utf8)
    return start..<bytes.count
  }

  /// Appends `other`'s changes after this list's (`StoreBatch`): its bytes in one copy,
  /// its entries moved by where those bytes land.
  public func append(to list: inout RowBuffer) {
    list.append(contentsOf: self)
  }

  public var changeList: RowBuffer? { self }

  public mutating func append(contentsOf other: RowBuffer) {
    let shift = bytes.count
    let keyedShift = UInt64(keyed.count)
    bytes.append(contentsOf: other.bytes)
    keyed.append(contentsOf: other.keyed)
    if shift == 0 && keyedShift == 0 {
      // The first list gathered into an empty one (several batches queued since the
      // last commit): the entries point where they did.
      entries.append(contentsOf: other.entries)
    } else {
      entries.reserveCapacity(entries.count + other.entries.count)
      for var entry in other.entries {
        if entry.kind == .keyed {
          entry.number += keyedShift
        } else {
          entry.table = entry.table.lowerBound + shift..<entry.table.upperBound + shift
          entry.app = entry.app.lowerBound + shift..<entry.app.upperBound + shift
          entry.value = entry.value.lowerBound + shift..<entry.value.upperBound + shift
        }
        entries.append(entry)
      }
    }
    // The run names name this list's own copies: a later row copies its table and app.
    lastTable = nil
    lastApp = nil
  }

  /// The same changes as `StoreChange`s (stores that apply them one by one).
  public var changes: [StoreChange] {
    entries.map { entry in
      switch entry.kind {
      case .keyed: keyed[Int(entry.number)]
      case .put:
        .putNumbered(
          table: text(entry.table), app: text(entry.app), number: entry.number, value: Array(bytes[entry.value]))
      case .delete: .deleteNumbered(table: text(entry.table), number: entry.number)
      }
    }
  }

  func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
}
