/// A commit's changes as the writer thread gathers them: numbered rows are written
/// straight into one byte buffer (their table, app and value side by side) and recorded
/// as plain entries that point into it, so a commit of hundreds of rows makes no
/// per-row allocation, existential or enum copy, and the store binds each row's parts
/// from the buffer without copying them again.  The rare keyed changes are kept as they
/// are.  Reused from commit to commit (`removeAll` keeps the capacity).
public struct ChangeList {
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
  /// app, so their names are copied once per run, not once per row.
  private var lastTable: (name: String, at: Range<Int>)?
  private var lastApp: (name: String, at: Range<Int>)?

  public init() {}

  public var isEmpty: Bool { entries.isEmpty }

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
    if let last = lastTable, last.name == name { return last.at }
    let at = copy(name)
    lastTable = (name, at)
    return at
  }

  private mutating func appRange(_ name: String) -> Range<Int> {
    if let last = lastApp, last.name == name { return last.at }
    let at = copy(name)
    lastApp = (name, at)
    return at
  }

  private mutating func copy(_ text: String) -> Range<Int> {
    let start = bytes.count
    bytes.append(contentsOf: text.utf8)
    return start..<bytes.count
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
