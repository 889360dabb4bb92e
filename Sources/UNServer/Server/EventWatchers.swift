import JSONRPC
import UNModel
import UVLoop

/// Where the center's events go besides the log: connections that said `watch`, and
/// `waitFor` calls waiting for a matching event (each with its timeout timer).
///
/// Loop-confined, owned by `EffectRouter`.
final class EventWatchers {
  let loop: EventLoop
  let configuration: ServerConfiguration
  let log: Log
  let metrics: Metrics
  let center: Center
  let connections: Connections
  let outbox: Outbox
  private(set) var waits: [PendingWait] = []
  /// The buffer of every event's log line, reused.
  private var line = LogLine(.info, "", journal: false)

  init(
    loop: EventLoop, configuration: ServerConfiguration, log: Log, metrics: Metrics, center: Center,
    connections: Connections, outbox: Outbox
  ) {
    self.loop = loop
    self.configuration = configuration
    self.log = log
    self.metrics = metrics
    self.center = center
    self.connections = connections
    self.outbox = outbox
  }

  /// Sends an event to every watching connection and answers the waits it satisfies.
  func publish(_ event: Event) {
    logEvent(event)
    guard metrics.watchers > 0 || !waits.isEmpty else { return }
    let json = ModelEncoding.event(event)
    var encoded: [UInt8]?
    for client in connections.clients.values where client.condition.isLive {
      guard let watch = client.state.watching, watch.includes(event.app), mayObserve(client, event.app) else {
        continue
      }
      if encoded == nil {
        var bytes: [UInt8] = []
        RPCEncoder.appendNotification(method: "event", params: json, to: &bytes)
        encoded = bytes
      }
      outbox.queueCallback(encoded!, to: client)
    }
    guard !waits.isEmpty else { return }
    var satisfied: [PendingWait] = []
    for wait in waits
    where (wait.request.app.map { $0.exactlyEquals(event.app) } ?? true) && json.matches(wait.request.filter) {
      satisfied.append(wait)
    }
    for wait in satisfied { finish(wait, with: json) }
  }

  /// An event of the daemon's own, of no app (the state directory's condition): to every
  /// connection watching all apps and to the waits that name no app.  Not kept in the
  /// history (it is no app's), and logged by its caller.
  func publishDaemonEvent(_ type: Server.DaemonEvent, at date: Instant, _ fields: [JSONMember]) {
    let json = JSONValue.object(
      [
        JSONMember("type", .string(type.rawValue)), JSONMember("app", .null),
        JSONMember("date", ModelEncoding.date(date)),
      ]
        + fields)
    var encoded: [UInt8] = []
    RPCEncoder.appendNotification(method: "event", params: json, to: &encoded)
    for client in connections.clients.values where client.condition.isLive {
      guard let watch = client.state.watching, watch.apps == nil else { continue }
      outbox.queueCallback(encoded, to: client)
    }
    let satisfied = waits.filter { $0.request.app == nil && json.matches($0.request.filter) }
    for wait in satisfied { finish(wait, with: json) }
  }

  /// A log line per event, `level=info event=fired app=... id=...` (README.md, "Limits,
  /// logs and metrics").
  private func logEvent(_ event: Event) {
    guard log.logs(.info) else { return }
    // One access to the reused line for the whole of it.
    Self.fill(&line, with: event, journal: log.journal)
    log.write(reusing: &line)
  }

  private static func fill(_ line: inout LogLine, with event: Event, journal: Bool) {
    line.restart(.info, event.kind.rawValue, journal: journal)
    line.field("app", event.app)
    line.field("seq", event.sequence)
    if let (id, next) = event.identifierFields {
      line.field("id", id)
      if let next { line.field("nextTriggerDate", next) }
    } else {
      event.forEachField { name, value in
        let key = name == "identifier" ? "id" : name
        switch value {
        case .string(let s): line.field(named: key, s)
        case .int(let i): line.field(named: key, "\(i)")
        case .bool(let b): line.field(named: key, b ? "true" : "false")
        case .strings(let list): line.field(named: key, list.joined(separator: ","))
        case .date(let d): line.field(named: key, d.rfc3339)
        }
      }
    }
  }

  /// A watcher of every app sees only the apps its uid may use (proto-docs/README.md,
  /// "Apps and their owners").
  private func mayObserve(_ client: ClientConnection, _ app: String) -> Bool {
    let uid = client.state.peer?.uid ?? configuration.daemonUID
    if uid == 0 || uid == configuration.daemonUID { return true }
    return center.owner(of: app).map { $0 == uid } ?? false
  }

  /// Registers a deferred `waitFor` with a timer for its timeout.
  func startWait(_ request: WaitRequest, id: RequestID, for client: ClientConnection) {
    do {
      let timer = try LoopTimer(loop: loop)
      let wait = PendingWait(client: client, id: id, request: request, timer: timer)
      waits.append(wait)
      metrics.waits = waits.count
      loop.updateTime()
      try timer.start(afterMilliseconds: request.timeoutMilliseconds) { [unowned self, unowned wait] in
        self.finish(wait, with: .null)
      }
    } catch {
      outbox.queueAnswer(.error(id, .internalError("cannot start the wait timer: \(error)")), to: client)
    }
  }

  /// `$/cancelRequest`: `client`'s waits with `id` are answered at once with -32800 and
  /// forgotten.  False when it has none (answered already, unknown, or another
  /// connection's), which is not an error.
  func cancelWait(_ id: RequestID, of client: ClientConnection) -> Bool {
    let cancelled = waits.filter { $0.client === client && $0.id == id }
    guard !cancelled.isEmpty else { return false }
    waits.removeAll { $0.client === client && $0.id == id }
    metrics.waits = waits.count
    for wait in cancelled {
      wait.timer.close()
      outbox.queueAnswer(.error(id, .requestCancelled(id)), to: client)
    }
    return true
  }

  /// Answers a wait with the matching event (or null on timeout) and forgets it.
  private func finish(_ wait: PendingWait, with event: JSONValue) {
    waits.removeAll { $0 === wait }
    metrics.waits = waits.count
    wait.timer.close()
    guard wait.client.condition.isLive else { return }
    outbox.queueAnswer(.result(wait.id, .object(["event": event])), to: wait.client)
  }

  /// Drops the waits and the watch of a connection that is going away.
  func cancel(of client: ClientConnection) {
    if client.state.watching != nil {
      client.state.watching = nil
      metrics.watchers -= 1
    }
    for wait in waits where wait.client === client {
      wait.timer.close()
    }
    waits.removeAll { $0.client === client }
    metrics.waits = waits.count
  }

  /// Shutdown: every wait's timer closes; the waits are not answered.
  func closeAll() {
    for wait in waits { wait.timer.close() }
    waits.removeAll()
  }
}
