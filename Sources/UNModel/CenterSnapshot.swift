/// Everything the center keeps between runs, as a durable store hands it back at start-up.
public struct CenterSnapshot {
  public var apps: [ExactKey: AppState] = [:]
  public var deliverySequence: UInt64 = 0
  public var additionSequence: UInt64 = 0
  public var responseCounter: UInt64 = 0
  public var pushCounter: UInt64 = 0
  public var modificationCounter: UInt64 = 0
  public var deviceLocked = false
  public var openResponses: [String: (app: String, deadline: Instant)] = [:]
  public var pendingModifications: [String: PendingModification] = [:]
  public var pendingExtensionResponses: [String: (app: String, prepared: PreparedResponse, deadline: Instant)] = [:]
  /// The manual clock's time when it was saved.
  public var clock: Instant?
  /// The ceiling of the event numbers handed out (`Center.takeChanges`); numbering
  /// resumes above it.
  public var eventSequence: UInt64 = 0
  /// The kept event history, in any order (restored oldest first).
  public var events: [Event] = []

  public init() {}
}

extension Center {
  /// The state a durable store keeps (the parts not stored per app).
  public func snapshotGlobals() -> CenterSnapshot {
    var s = CenterSnapshot()
    s.deliverySequence = counters.delivery
    s.additionSequence = ceilings.reservedAddition
    s.responseCounter = counters.response
    s.pushCounter = counters.push
    s.modificationCounter = counters.modification
    s.deviceLocked = deviceLocked
    s.openResponses = openResponses
    s.pendingModifications = pendingModifications
    for (id, pending) in pendingExtensionResponses {
      let deadline = agenda.date(of: .extensionResponseTimeout(responseId: id)) ?? clock.now
      s.pendingExtensionResponses[id] = (pending.app, pending.prepared, deadline)
    }
    s.clock = clock.isManual ? clock.now : nil
    s.eventSequence = ceilings.reservedEvent
    return s
  }

  /// Replaces the center's state with a stored one and rebuilds the agenda from it.
  /// Connections are not part of it: apps start in the background until they say hello.
  public func restore(_ s: CenterSnapshot) {
    adopt(s.apps)
    counters = CenterCounters(
      delivery: s.deliverySequence, response: s.responseCounter, push: s.pushCounter,
      modification: s.modificationCounter)
    ceilings.addition = s.additionSequence
    ceilings.reservedAddition = s.additionSequence
    openResponses = s.openResponses
    pendingModifications = s.pendingModifications
    agenda = Agenda()
    for (id, open) in s.openResponses.sorted(by: { $0.key < $1.key }) {
      agenda.add(.responseDeadline(responseId: id), at: open.deadline)
    }
    for (id, m) in s.pendingModifications.sorted(by: { $0.key < $1.key }) {
      agenda.add(m.warned ? .serviceTimeout(requestId: id) : .serviceWillExpire(requestId: id), at: m.deadline)
    }
    pendingExtensionResponses = [:]
    for (id, p) in s.pendingExtensionResponses.sorted(by: { $0.key < $1.key }) {
      pendingExtensionResponses[id] = PendingExtensionResponse(app: p.app, prepared: p.prepared, session: -1)
      agenda.add(.extensionResponseTimeout(responseId: id), at: p.deadline)
    }
    deviceLocked = s.deviceLocked
    if let now = s.clock, clock.isManual { clock.set(now) }
    ceilings.committedClock = clock.isManual ? clock.now : nil
    for event in s.events.sorted(by: { $0.sequence < $1.sequence }) { history.restore(event) }
    history.resume(after: s.eventSequence)
    ceilings.reservedEvent = s.eventSequence
    // What was just loaded is what the store holds.
    changes.clear()
  }
}
