/// What changed since the last commit, so a durable store writes only that (a pending
/// request, not the app's whole schedule).
/// Not `Sendable`: it holds live pending records (`PendingSnapshot`).
/// Apps and identifiers are kept by their exact bytes (`ExactKey`).
///
/// The changes the journal recorded since its last take (`ChangeJournal.takeChanges`):
/// the first value of a durable change's way to the store (see `ChangeJournal`).
public struct RecordedChanges {
  public struct Key: Hashable, Sendable {
    public var app: String
    public var identifier: String

    public static func == (a: Key, b: Key) -> Bool {
      a.app.exactlyEquals(b.app) && a.identifier.exactlyEquals(b.identifier)
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(ExactKey(app))
      hasher.combine(ExactKey(identifier))
    }
  }

  /// Apps whose own record changed (badge, authorization, foreground, expanded, owner).
  public internal(set) var apps = Set<ExactKey>()
  public internal(set) var categories = Set<ExactKey>()
  /// Apps whose localized strings were replaced.
  public internal(set) var strings = Set<ExactKey>()
  /// What happened to pending requests, in order: a request as it was when it was added,
  /// replaced or rescheduled (a snapshot), or the addition sequence of one that left or
  /// was replaced, which numbers its stored row.  Applied in order, the last change of a
  /// row wins; recorded by appending, with no lookup or hashing.
  public internal(set) var pending: [PendingChange] = []
  public internal(set) var delivered = Set<Key>()
  public internal(set) var queued = Set<ExactKey>()
  /// Apps wiped by `reset`: everything stored for them goes first.
  public internal(set) var resets = Set<ExactKey>()
  /// Daemon-wide state: counters, open responses, the agenda, extension work, the clock.
  public internal(set) var globals = false
  /// Events recorded (numbered), oldest first: the history `waitFor {since}` and `watch`
  /// read survives a restart.
  public internal(set) var events: [Event] = []
  /// The events the per-app history bound pushed out, oldest first (a reset app's events
  /// are not listed: everything stored of them goes with `resets`).
  public internal(set) var forgottenEvents: [ForgottenEvent] = []

  /// An event that left its app's history.
  public struct ForgottenEvent {
    public var app: String
    public var sequence: UInt64
  }

  public var isEmpty: Bool {
    apps.isEmpty && categories.isEmpty && strings.isEmpty && pending.isEmpty && delivered.isEmpty
      && queued.isEmpty && resets.isEmpty && !globals && events.isEmpty && forgottenEvents.isEmpty
  }
}

/// The one place durable changes are recorded.  Nothing outside the state types calls
/// it: `AppState`'s durable fields and the center's global fields record themselves
/// when they are set (observers and the only mutating accessors of the keyed
/// collections), so a new mutation cannot forget its mark.  Disabled when state lives
/// in memory only, so recording costs one test of a flag.
///
/// A class: the center and each of its apps share one journal.  Loop-confined, as the
/// center is.
///
/// A durable change's way, in the order its types meet it: `ChangeJournal` records it
/// as it happens; each iteration takes a `RecordedChanges`; the server turns that into
/// `BatchRows` and encodes them into a `RowBuffer` (bytes only) for the store's writer
/// thread (`Committer` on the loop, `StoreWriter` on its thread); the output reporting
/// the change waits in its connection's `HeldOutput` until `OutputGate` knows the
/// commit is durable.
public final class ChangeJournal {
  // Stored properties are `@exclusivity(unchecked)`: the loop thread alone touches the journal,
  // so the run-time exclusivity checks have nothing to catch, and they cost every request
  // (BENCHMARKS.md, "Exclusivity checks").

  @exclusivity(unchecked) public var isEnabled = false
  @exclusivity(unchecked) var set = RecordedChanges()
  /// The first event recorded since the last take: an event the history drops that is
  /// numbered from here on was recorded in this batch, and is never written.
  @exclusivity(unchecked) private var firstRecorded: UInt64?
  /// Such events, still in `set.events` until the next compaction.
  @exclusivity(unchecked) private var droppedEvents = Set<UInt64>()
  /// `set.pending` is compacted when it reaches this many entries.
  @exclusivity(unchecked) private var pendingCompactionMark = ChangeJournal.minimumCompaction

  /// Pending-request and event changes recorded since the last take: about how many rows
  /// the next commit writes.
  public var rowCount: Int { self.set.pending.count + self.set.events.count }

  public init() {}

  func app(_ app: String) { if isEnabled { set.apps.insert(app) } }
  func categories(_ app: String) { if isEnabled { set.categories.insert(app) } }
  func strings(_ app: String) { if isEnabled { set.strings.insert(app) } }
  /// A pending request was added, replaced or moved: `record` is it now, `removed` the
  /// addition sequence of the one it replaced (nil when none).  The live record is kept,
  /// not a copy: its row is encoded when the batch is taken, on the loop, from what the
  /// record holds then.  A record changed again later in the batch (replaced in place,
  /// moved to its next date) has a later entry of its own, so the last put of each row
  /// number is the request as it is at the end of the batch, which is all the store
  /// keeps; an earlier entry written with the record's newer number is put again by
  /// that later entry.
  func pending(_ app: String, _ record: PendingRecord, removed sequence: UInt64?) {
    guard isEnabled else { return }
    if let sequence { set.pending.append(.removed(sequence)) }
    set.pending.append(.stored(PendingSnapshot(app: app, record: record)))
    if set.pending.count >= pendingCompactionMark { compactPending() }
  }
  /// A pending request left; `sequence` numbers its stored row.
  func pendingRemoved(_ sequence: UInt64) {
    guard isEnabled else { return }
    set.pending.append(.removed(sequence))
    if set.pending.count >= pendingCompactionMark { compactPending() }
  }
  func delivered(_ app: String, _ id: String) {
    if isEnabled { set.delivered.insert(RecordedChanges.Key(app: app, identifier: id)) }
  }
  func queued(_ app: String) { if isEnabled { set.queued.insert(app) } }
  func event(_ event: Event, evicted: UInt64?) {
    guard isEnabled else { return }
    if let evicted {
      if let first = firstRecorded, evicted >= first {
        droppedEvents.insert(evicted)
        if droppedEvents.count >= Self.minimumCompaction, droppedEvents.count * 2 >= set.events.count {
          compactEvents()
        }
      } else {
        set.forgottenEvents.append(RecordedChanges.ForgottenEvent(app: event.app, sequence: evicted))
      }
    }
    if firstRecorded == nil { firstRecorded = event.sequence }
    set.events.append(event)
  }
  /// Stored rows to remove at `reset`, found from what the center holds for the app (its
  /// pending requests' numbers), so the store deletes by number instead of scanning
  /// every row for the app's name.  Its events go by the app (`resets`).
  func forget(pending sequences: some Sequence<UInt64>) {
    guard isEnabled else { return }
    set.pending.append(contentsOf: sequences.lazy.map { .removed($0) })
  }
  func global() { if isEnabled { set.globals = true } }
  func reset(_ app: String) {
    guard isEnabled else { return }
    set.resets.insert(app)
    set.apps.insert(app)
    set.categories.remove(app)
    set.strings.remove(app)
    set.queued.remove(app)
    // The app's requests stored earlier in this batch would be written only to be
    // deleted (`forget` recorded the deletion of every row the app has).
    set.pending.removeAll {
      if case .stored(let s) = $0 { s.app.exactlyEquals(app) } else { false }
    }
    set.delivered = set.delivered.filter { !$0.app.exactlyEquals(app) }
    set.events.removeAll { $0.app.exactlyEquals(app) }
    set.forgottenEvents.removeAll { $0.app.exactlyEquals(app) }
  }

  /// Forgets what was recorded (after a restore: the store already holds it).
  func clear() {
    set = RecordedChanges()
    firstRecorded = nil
    droppedEvents.removeAll()
    pendingCompactionMark = Self.minimumCompaction
  }

  /// Nothing recorded since the last take.
  var isEmpty: Bool { self.set.isEmpty }

  func take() -> RecordedChanges {
    if !droppedEvents.isEmpty { compactEvents() }
    // A batch that was compacted is a long one: its last stretch too.
    if pendingCompactionMark > Self.minimumCompaction || set.pending.count >= Self.minimumCompaction {
      compactPending()
    }
    firstRecorded = nil
    pendingCompactionMark = Self.minimumCompaction
    var taken = RecordedChanges()
    swap(&taken, &set)
    // The next batch is likely about the size of the recent ones: room for it up front,
    // as large as the arrays grew to, rather than the arrays growing (and copying) from
    // empty on every batch (a batch of 28 `scheduleLocal` calls grew them 3 times).
    set.pending.reserveCapacity(Self.room(taken.pending.capacity))
    set.events.reserveCapacity(Self.room(taken.events.capacity))
    if taken.forgottenEvents.capacity > 0 {
      set.forgottenEvents.reserveCapacity(Self.room(taken.forgottenEvents.capacity))
    }
    return taken
  }

  // MARK: Compaction
  // A batch is usually one loop iteration's changes, a few rows.  A long run of firings
  // in one call (an `advanceClock` over a year of a once-a-minute trigger) is one batch
  // too: recorded as it happened, it would hold every firing's events and every move of
  // the request, about a million entries.  What the store ends up with is the state at
  // the end, so a batch keeps only what still changes that: it stays as large as the
  // history and the requests it touched, however many firings it covers.

  /// Below this many entries a batch is never compacted (ordinary batches never are).
  static let minimumCompaction = 4096

  /// Removes the events that left the history in the batch they were recorded in: their
  /// rows would be written only to be deleted.
  private func compactEvents() {
    set.events.removeAll { droppedEvents.contains($0.sequence) }
    droppedEvents.removeAll(keepingCapacity: true)
  }

  /// Keeps, of the pending changes, the last one of each record and of each removed row
  /// number, in their order.  The last change of a row decides what the store keeps: a
  /// record's entries all read the live record when the batch is encoded (so only its
  /// last one counts), and removing a row twice is removing it once.
  private func compactPending() {
    var records = Set<ObjectIdentifier>()
    var removed = Set<UInt64>()
    var kept: [PendingChange] = []
    for change in set.pending.reversed() {
      switch change {
      case .stored(let snapshot):
        if records.insert(ObjectIdentifier(snapshot.record)).inserted { kept.append(change) }
      case .removed(let sequence):
        if removed.insert(sequence).inserted { kept.append(change) }
      }
    }
    set.pending = kept.reversed()
    // Past the minimum even when little is left, so `take` sees that it compacted.
    pendingCompactionMark = max(Self.minimumCompaction + 1, 2 * set.pending.count)
  }

  /// At most `maxRoom` entries are reserved: one burst does not make every later batch
  /// allocate for it.
  private static func room(_ capacity: Int) -> Int { min(capacity, maxRoom) }
  static let maxRoom = 1024
}

extension Center {
  /// The changes since the last call; the store commits them before answers go out.
  /// The manual clock and the event and addition numberings are compared here rather
  /// than marked: they move without any state type being set.
  public func takeChanges() -> RecordedChanges {
    if changes.isEnabled {
      if clock.isManual, clock.now != ceilings.committedClock {
        ceilings.committedClock = clock.now
        changes.global()
      }
      if history.lastSequence > ceilings.reservedEvent {
        ceilings.reservedEvent = history.lastSequence + Self.eventSequenceBlock
        changes.global()
      }
      if ceilings.addition > ceilings.reservedAddition {
        ceilings.reservedAddition = ceilings.addition + Self.eventSequenceBlock
        changes.global()
      }
    }
    // An iteration that changed nothing keeps the journal as it is (and the room it
    // reserved for the next batch).
    guard !changes.isEmpty else { return RecordedChanges() }
    return changes.take()
  }

  /// Event and addition numbers are stored as a ceiling reserved a block at a time (as a
  /// database hands out sequence values), so recording an event or adding a request does
  /// not rewrite the globals row; after a restart numbering resumes above the ceiling and
  /// never reuses a number.
  static var eventSequenceBlock: UInt64 { 1_000 }
}
