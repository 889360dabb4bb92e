import JSONRPC
import UNModel
import UVLoop

/// A `waitFor` waiting for its event: who asked, under which id, and its timeout timer.
final class PendingWait {
  let client: ClientConnection
  let id: RequestID
  let request: WaitRequest
  let timer: LoopTimer

  init(client: ClientConnection, id: RequestID, request: WaitRequest, timer: LoopTimer) {
    self.client = client
    self.id = id
    self.request = request
    self.timer = timer
  }
}

extension Server {
  /// Sends an event to every watching connection and answers the waits it satisfies.
  func publish(_ event: Event) {
    logEvent(event)
    guard metrics.watchers > 0 || !waits.isEmpty else { return }
    let json = ModelEncoding.event(event)
    var encoded: [UInt8]?
    for client in clients.values where !client.closing {
      guard let watch = client.state.watching, watch.includes(event.app), mayObserve(client, event.app) else {
        continue
      }
      if encoded == nil {
        var bytes: [UInt8] = []
        RPCEncoder.appendNotification(method: "event", params: json, to: &bytes)
        encoded = bytes
      }
      queueCallback(encoded!, to: client)
    }
    guard !waits.isEmpty else { return }
    var satisfied: [PendingWait] = []
    for wait in waits where (wait.request.app.map { $0 == event.app } ?? true) && json.matches(wait.request.filter) {
      satisfied.append(wait)
    }
    for wait in satisfied { finish(wait, with: json) }
  }

  /// SPEC §9: a log line per event, `level=info event=fired app=... id=...`.
  func logEvent(_ event: Event) {
    guard var line = log.line(.info, event.kind.rawValue) else { return }
    line.field("app", event.app)
    line.field("seq", event.sequence)
    event.forEachField { name, value in
      let key = name == "identifier" ? "id" : name
      switch value {
      case .string(let s): line.field(key, s)
      case .int(let i): line.field(key, i)
      case .bool(let b): line.field(key, b)
      case .strings(let list): line.field(key, list.joined(separator: ","))
      case .date(let d): line.field(key, d)
      }
    }
    log.write(line)
  }

  /// A watcher of every app sees only the apps its uid may use (SPEC §9).
  func mayObserve(_ client: ClientConnection, _ app: String) -> Bool {
    let uid = client.state.peer?.uid ?? configuration.daemonUID
    if uid == 0 || uid == configuration.daemonUID { return true }
    return center.apps[app]?.owner.map { $0 == uid } ?? false
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
      queueAnswer(.error(id, .internalError("cannot start the wait timer: \(error)")), to: client)
    }
  }

  /// Answers a wait with the matching event (or null on timeout) and forgets it.
  func finish(_ wait: PendingWait, with event: JSONValue) {
    waits.removeAll { $0 === wait }
    metrics.waits = waits.count
    wait.timer.close()
    guard !wait.client.closing else { return }
    queueAnswer(.result(wait.id, .object(["event": event])), to: wait.client)
  }

  /// Drops the waits and the watch of a connection that is going away.
  func cancelWaits(of client: ClientConnection) {
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
}
