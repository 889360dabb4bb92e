import JSONRPC
import UNModel
import UNProtocol
import UNStore

/// Connects the center to a durable store: loads the state at start-up, and commits what
/// changed once per loop iteration; the answers of that iteration wait for the commit.
final class Persistence {
  let store: StateStore

  enum Table {
    static let app = "app"
    static let categories = "categories"
    static let strings = "strings"
    static let pending = "pending"
    static let delivered = "delivered"
    static let queued = "queued"
    static let globals = "globals"
    /// Schema version 4 and earlier: an event per row.  Read at start-up and rewritten
    /// as runs (`eventRuns`).
    static let events = "events"
    /// The event history in runs (`EventRuns`).
    static let eventRuns = "eventruns"
  }

  /// Where the stored event history is; the running daemon's `Committer` takes it over.
  private(set) var runs = EventRuns()
  /// Rows the start-up commit changes besides the center's: event runs none of whose
  /// events is kept, and the event rows of schema version 4 and earlier, rewritten as runs.
  private var startup = RowBuffer()

  init(store: StateStore) { self.store = store }

  /// Reads every row and rebuilds the center.  A row that does not decode stops start-up:
  /// silently dropping state would be data loss.
  func load(into center: Center) throws {
    var snapshot = CenterSnapshot()
    var loadedRuns: [(app: String, number: UInt64, sequences: [UInt64])] = []
    var rowsOfEvents: [(app: String, number: UInt64)] = []
    func app(_ id: String) -> AppState {
      snapshot.apps[id] ?? AppState(appId: id, authorization: center.configuration.initialAuthorization)
    }
    let database = (store as? SQLiteStore)?.path
    for row in try store.loadAll() {
      let value: JSONValue
      do {
        value = try row.value.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in
          try JSONParser.parse(b)
        }
      } catch {
        throw StoreCorruption(row: row, reason: "\(error)", database: database)
      }
      do {
        switch row.table {
        case Table.app:
          let a = app(row.app)
          try StateCodec.decodeApp(row.app, value, into: a)
          snapshot.apps[row.app] = a
        case Table.categories:
          let a = app(row.app)
          var list: [Category] = []
          for c in value.arrayValue ?? [] { list.append(try StateCodec.decodeCategory(c)) }
          a.categories = list
          snapshot.apps[row.app] = a
        case Table.strings:
          let a = app(row.app)
          a.localizedStrings = try StateCodec.decodeStrings(value)
          snapshot.apps[row.app] = a
        case Table.pending:
          let a = app(row.app)
          a.restorePending(try StateCodec.decodePending(value))
          snapshot.apps[row.app] = a
        case Table.delivered:
          let a = app(row.app)
          let n = try StateCodec.decodeDelivered(value)
          a.setDelivered(n.identifier, n)
          snapshot.apps[row.app] = a
        case Table.queued:
          let a = app(row.app)
          a.queuedResponses = try StateCodec.decodeQueued(value)
          snapshot.apps[row.app] = a
        case Table.globals:
          try StateCodec.decodeGlobals(value, into: &snapshot)
        case Table.events:
          snapshot.events.append(try StateCodec.decodeEvent(value))
          rowsOfEvents.append((row.app, try Self.number(row)))
        case Table.eventRuns:
          guard let list = value.arrayValue, !list.isEmpty else {
            throw StateCodec.Corrupt(description: "expected a non-empty array of events")
          }
          var sequences: [UInt64] = []
          for item in list {
            let event = try StateCodec.decodeEvent(item)
            sequences.append(event.sequence)
            snapshot.events.append(event)
          }
          loadedRuns.append((row.app, try Self.number(row), sequences))
        default:
          throw StateCodec.Corrupt(description: "unknown table")
        }
      } catch let error as StateCodec.Corrupt {
        throw StoreCorruption(row: row, reason: error.description, database: database)
      }
    }
    center.restore(snapshot)
    restoreRuns(loadedRuns, rowsOfEvents, of: center)
  }

  private static func number(_ row: StoredRow) throws(StateCodec.Corrupt) -> UInt64 {
    guard let number = UInt64(row.key) else { throw StateCodec.Corrupt(description: "the row has no number") }
    return number
  }

  /// After the history is restored: how many of each stored run's events it kept
  /// (`EventRuns`).  Rows of one event each (schema version 4 and earlier) become runs in
  /// the start-up commit: one per app, of the events its history kept.
  private func restoreRuns(
    _ loaded: [(app: String, number: UInt64, sequences: [UInt64])], _ rowsOfEvents: [(app: String, number: UInt64)],
    of center: Center
  ) {
    func oldestKept(_ app: String) -> UInt64 { center.history.events(of: app).first?.sequence ?? .max }
    for run in loaded.sorted(by: { $0.number < $1.number }) {
      let oldest = oldestKept(run.app)
      let live = run.sequences.lazy.filter { $0 >= oldest }.count
      if live == 0 {
        startup.deleteNumbered(table: Table.eventRuns, number: run.number)
      } else {
        runs.added(app: run.app, number: run.number, live: live)
      }
    }
    guard !rowsOfEvents.isEmpty else { return }
    for row in rowsOfEvents { startup.deleteNumbered(table: Table.events, number: row.number) }
    let fromRows = Set(rowsOfEvents.lazy.map { $0.number - StateCodec.eventNumberBase })
    for app in Set(rowsOfEvents.lazy.map { ExactKey($0.app) }).sortedStrings {
      let kept = center.history.events(of: app).filter { fromRows.contains($0.sequence) }
      kept.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        BatchRows.appendRuns(base, buffer.indices, skipping: [], to: &startup, runs: &runs)
      }
    }
  }

  /// Writes what changed since the last commit, in one transaction, on this thread
  /// (start-up, and tests; the running daemon commits through `Committer`).
  func commit(_ center: Center) throws {
    var changes = startup
    startup = RowBuffer()
    Self.takeChanges(from: center)?.append(to: &changes, runs: &runs)
    try store.commit(changes)
  }

  /// What changed since the last call, nil when nothing did.  The rare rows (apps,
  /// globals, ...) are read from the center and encoded here; pending requests and
  /// events, a row or two per request, are encoded by `BatchRows.append(to:)` when the
  /// batch is submitted.  Both on the loop thread.
  static func takeChanges(from center: Center) -> BatchRows? {
    let changes = center.takeChanges()
    guard !changes.isEmpty else { return nil }
    var out: [StoreChange] = []
    let resets = sorted(changes.resets)
    for app in resets { out.append(.deleteApp(app)) }
    for app in sorted(changes.apps) {
      guard let state = center.apps[app] else { continue }
      out.append(put(Table.app, app, "", StateCodec.app(state)))
    }
    for app in sorted(changes.strings) {
      guard let state = center.apps[app] else { continue }
      out.append(put(Table.strings, app, "", StateCodec.strings(state.localizedStrings)))
    }
    for app in sorted(changes.categories) {
      guard let state = center.apps[app] else { continue }
      var row: [UInt8] = []
      CategoryShape.encode(state.categories, &row)
      out.append(.put(StoredRow(table: Table.categories, app: app, key: "", value: row)))
    }
    for key in changes.delivered {
      if let n = center.apps[key.app]?.delivered[key.identifier] {
        var row: [UInt8] = []
        StateCodec.delivered(n, &row)
        out.append(.put(StoredRow(table: Table.delivered, app: key.app, key: key.identifier, value: row)))
      } else {
        out.append(.delete(table: Table.delivered, app: key.app, key: key.identifier))
      }
    }
    for app in sorted(changes.queued) {
      if let q = center.apps[app]?.queuedResponses, !q.isEmpty {
        out.append(put(Table.queued, app, "", StateCodec.queued(q)))
      } else {
        out.append(.delete(table: Table.queued, app: app, key: ""))
      }
    }
    if changes.globals {
      out.append(
        .put(StoredRow(table: Table.globals, app: "", key: "", value: StateCodec.globalsRow(center.snapshotGlobals()))))
    }
    return BatchRows(
      keyed: out, pending: changes.pending, events: changes.events, forgottenEvents: changes.forgottenEvents,
      resets: resets)
  }

  /// Sorted (by their bytes), without a sort's setup for the set that is nearly always empty.
  private static func sorted(_ set: Set<ExactKey>) -> [String] { set.sortedStrings }

  private static func put(_ table: String, _ app: String, _ key: String, _ value: JSONValue) -> StoreChange {
    .put(StoredRow(table: table, app: app, key: key, value: value.encoded()))
  }
}

/// A stored row that cannot be read back: which row, and, in a state directory, which
/// database, which directory and what the operator can do.
struct StoreCorruption: Error, CustomStringConvertible {
  var row: StoredRow
  var reason: String
  /// The database file, when the store has one.
  var database: String?
  var description: String {
    let what = "table \(row.table), app '\(row.app)', key '\(row.key)': \(reason)"
    guard let database else { return "stored state is corrupt: \(what)" }
    return "stored state is corrupt: "
      + StateDirectory.unusable(database: database, "holds a row that cannot be read (\(what))").description
  }
}
