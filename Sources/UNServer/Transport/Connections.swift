import UNModel
import UVLoop

/// The open connections and their conditions: every transition of
/// `ClientConnection.Condition` happens here, through `enter(_:_:)`, which is also the
/// only place the paused-connection count changes.
///
/// Loop-confined, owned by `Server`.
final class Connections {
  private(set) var clients: [SessionID: ClientConnection] = [:]
  private var nextSessionID: SessionID = 1
  /// Connections with output queued this iteration, in the order they got it.
  private(set) var dirty: [ClientConnection] = []
  let metrics: Metrics
  /// Told once when a connection stops being live (draining or dropped): it detaches it
  /// from the center and cancels its waits (`Runner.detached`).  Weak: it holds the
  /// outbox, which holds these connections.
  weak var runner: Runner?

  init(metrics: Metrics) { self.metrics = metrics }

  var count: Int { clients.count }

  /// Registers an accepted stream as a new, reading connection.
  func add(_ stream: StreamConnection, peer: ClientState.Peer?, maxMessageBytes: Int) -> ClientConnection {
    let id = nextSessionID
    nextSessionID += 1
    let client = ClientConnection(
      stream: stream, state: ClientState(id: id, peer: peer), maxMessageBytes: maxMessageBytes)
    clients[id] = client
    metrics.connections = clients.count
    metrics.connectionsAccepted += 1
    return client
  }

  /// The one place a condition changes; keeps the paused count in step.
  private func enter(_ next: ClientConnection.Condition, _ client: ClientConnection) {
    let previous = client.condition
    client.move(to: next)
    if previous == .paused { metrics.pausedConnections -= 1 }
    if next == .paused { metrics.pausedConnections += 1 }
  }

  /// reading -> paused: it is not reading its answers, so its requests wait.
  func pause(_ client: ClientConnection) {
    guard client.condition == .reading else { return }
    enter(.paused, client)
    client.stream.stopReading()
  }

  /// paused -> reading: its answers drained.  A connection parked behind an attachment
  /// copy is read again once that is answered (`Server+Attachments.swift`).
  func resume(_ client: ClientConnection) {
    guard client.condition == .paused else { return }
    enter(.reading, client)
    guard client.parked == nil else { return }
    do {
      try client.stream.resumeReading()
    } catch {
      drop(client)
    }
  }

  /// reading/paused -> draining: no more requests; detach it from the center and
  /// write what it is owed, then `finish` it.
  func drain(_ client: ClientConnection) {
    guard client.condition.isLive else { return }
    enter(.draining, client)
    client.stream.stopReading()
    runner?.detached(client)
    markDirty(client)
  }

  /// draining -> closed, after its last write was queued: shut the write side down once
  /// the queued writes are sent, then close.
  func finish(_ client: ClientConnection) {
    guard client.condition == .draining else { return }
    enter(.closed, client)
    forget(client)
    do {
      try client.stream.shutdown { [stream = client.stream] _ in stream.close() }
    } catch {
      client.stream.close()
    }
  }

  /// Finishes a draining connection once nothing it is owed is left (written, held, or
  /// waiting for its attachments to be copied).
  func finishIfDrained(_ client: ClientConnection) {
    guard client.condition == .draining, client.output.isEmpty, client.held.isEmpty, client.parked == nil else {
      return
    }
    finish(client)
  }

  /// any -> closed at once (write error, outbound hard limit, store failure, shutdown
  /// deadline): what it is owed is discarded.
  func drop(_ client: ClientConnection) {
    guard client.condition != .closed else { return }
    let wasLive = client.condition.isLive
    enter(.closed, client)
    forget(client)
    if wasLive { runner?.detached(client) }
    client.output.removeAll()
    client.held.removeAll()
    client.stream.close()
  }

  /// Drops every connection (the shutdown deadline, a failed store).
  func dropAll() {
    for client in Array(clients.values) { drop(client) }
  }

  private func forget(_ client: ClientConnection) {
    clients[client.state.id] = nil
    metrics.connections = clients.count
  }

  func markDirty(_ client: ClientConnection) {
    guard !client.isDirty else { return }
    client.isDirty = true
    dirty.append(client)
  }

  /// The connections with output this iteration; the list starts again empty.
  func takeDirty(into batch: inout [ClientConnection]) {
    batch.removeAll(keepingCapacity: true)
    swap(&batch, &dirty)
  }
}
