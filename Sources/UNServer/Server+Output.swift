import Foundation
import JSONRPC
import UNModel
import UVLoop

extension Server {
  /// Encodes an answer in the client's framing and queues it.
  func queueAnswer(_ answer: Dispatcher.Answer, to client: ClientConnection) {
    if (client.framing ?? .newlineDelimited) == .newlineDelimited {
      // Encoded straight into the connection's output: a line needs no length up front.
      Self.encode(answer, into: &client.output)
      client.output.append(0x0A)
      markDirty(client)
      return
    }
    scratch.removeAll(keepingCapacity: true)
    Self.encode(answer, into: &scratch)
    frame(to: client)
  }

  /// A batch's answers as one JSON array.
  func queueBatch(_ answers: [Dispatcher.Answer], to client: ClientConnection) {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(UInt8(ascii: "["))
    for (i, answer) in answers.enumerated() {
      if i > 0 { scratch.append(UInt8(ascii: ",")) }
      Self.encode(answer, into: &scratch)
    }
    scratch.append(UInt8(ascii: "]"))
    frame(to: client)
  }

  static func encode(_ answer: Dispatcher.Answer, into buffer: inout [UInt8]) {
    switch answer {
    case .result(let id, let value): RPCEncoder.appendResult(id: id, result: value, to: &buffer)
    case .error(let id, let error): RPCEncoder.appendError(id: id, error: error, to: &buffer)
    case .encoded(let id, let bytes): RPCEncoder.appendResult(id: id, encodedResult: bytes, to: &buffer)
    case .deferred: assertionFailure("a deferred answer is not encoded")
    }
  }

  private func frame(to client: ClientConnection) {
    scratch.withUnsafeBytes { Framer.appendFrame($0, framing: client.framing ?? .newlineDelimited, to: &client.output) }
    markDirty(client)
  }

  /// Executes the center's effects: each callback is encoded into its connection's output.
  func routeEffects() {
    // Taken into a reused array; routing may queue new effects, which the next call takes.
    var taken = effectBuffer
    effectBuffer = []
    center.takeEffects(into: &taken)
    defer {
      taken.removeAll(keepingCapacity: true)
      effectBuffer = taken
    }
    for effect in taken {
      desktop?.consume(effect)
      switch effect {
      case .callback(let session, let callback):
        if case .presentForDecision(_, _, _, let id) = callback { startPresentationTimer(id) }
        guard let client = clients[session], !client.closing else { continue }
        let (method, params) = ModelEncoding.callback(callback)
        var bytes: [UInt8] = []
        RPCEncoder.appendNotification(method: method, params: params, to: &bytes)
        queueCallback(bytes, to: client)
      case .event(let event):
        publish(event)
      }
    }
  }

  /// Queues an encoded callback; such connections are flushed first.
  func queueCallback(_ message: [UInt8], to client: ClientConnection) {
    message.withUnsafeBytes { Framer.appendFrame($0, framing: client.framing ?? .newlineDelimited, to: &client.output) }
    client.hasCallbacks = true
    markDirty(client)
  }

  func markDirty(_ client: ClientConnection) {
    guard !client.isDirty else { return }
    client.isDirty = true
    dirty.append(client)
  }

  /// Once per loop iteration, after I/O: write every connection's output in one write
  /// (connections with callbacks first), then re-arm the trigger timer.
  func endOfIteration() {
    commitState()
    flushAll()
    armTimer()
  }

  /// Group commit: everything changed in this iteration, in one transaction, before any
  /// answer is written, so an acknowledged call is durable.  A store that cannot write
  /// stops the daemon: answering without storing would lose acknowledged state.
  func commitState() {
    guard let persistence else { return }
    do {
      try persistence.commit(center)
    } catch {
      log.error("store_commit_failed", ["error": "\(error)"])
      for client in clients.values { client.output.removeAll() }
      for client in Array(clients.values) { drop(client) }
      fatalStoreError = true
      stop(signal: SIGTERM)
    }
  }

  func flushAll() {
    guard !dirty.isEmpty else { return }
    let batch = dirty
    dirty.removeAll(keepingCapacity: true)
    for client in batch where client.hasCallbacks { flush(client) }
    for client in batch where !client.hasCallbacks { flush(client) }
  }

  private func flush(_ client: ClientConnection) {
    client.isDirty = false
    client.hasCallbacks = false
    guard !client.stream.isClosing else { return }
    guard writeOutput(client) else { return }
    if client.closing { finishClosing(client) }
  }

  /// In memory (no commit to wait for), a connection that sends a long burst of requests
  /// gets the answers written as they pile up, so it reads them and sends more while the
  /// rest of the burst is handled, instead of waiting for the whole burst.  Only when no
  /// callback is queued anywhere: callbacks must go out before the answers that caused
  /// them.
  func flushEarly(_ client: ClientConnection) {
    guard persistence == nil, client.output.count >= Self.earlyFlushBytes, !client.closing,
      !client.stream.isClosing, dirty.count == 1, !client.hasCallbacks
    else { return }
    _ = writeOutput(client)
  }

  static let earlyFlushBytes = 4096

  /// Hands the connection's output to the socket, enforcing the outbound limits; false
  /// when that dropped the connection.
  private func writeOutput(_ client: ClientConnection) -> Bool {
    if !client.output.isEmpty {
      let waiting = client.stream.queuedWriteBytes + client.output.count
      if waiting > configuration.outboundHardLimit {
        log.warn(
          "client_disconnected",
          ["conn": "\(client.state.id)", "reason": "outboundHardLimit", "queued": "\(waiting)",
           "limit": "\(configuration.outboundHardLimit)"])
        drop(client)
        return false
      }
      client.stream.write(client.output)
      if !client.closing, client.stream.queuedWriteBytes > configuration.outboundSoftLimit, !client.paused {
        // It is not reading its answers: stop reading its requests until they drain.
        client.paused = true
        metrics.pausedConnections += 1
        client.stream.stopReading()
      }
      if client.output.capacity > 1 << 20 {
        client.output = []
      } else {
        client.output.removeAll(keepingCapacity: true)
      }
    }
    return true
  }

  /// Arms the one timer for the earliest pending date (real clock only; the manual clock
  /// moves by `advanceClock`).
  func armTimer() {
    guard !stopping, !center.clock.isManual else { return }
    let deadline = center.nextDeadline
    guard deadline != armedDeadline else { return }
    armedDeadline = deadline
    guard let deadline else {
      timer.stop()
      return
    }
    let delay = max(0, deadline.milliseconds - center.clock.now.milliseconds)
    loop.updateTime()
    do {
      try timer.start(afterMilliseconds: UInt64(delay)) { [unowned self] in self.timerFired() }
    } catch {
      log.error("timer_failed", ["error": "\(error)"])
    }
  }

  private func timerFired() {
    armedDeadline = nil
    let now = center.clock.now
    let fired = center.fireDue(upTo: now)
    for firing in fired {
      metrics.recordLateness(milliseconds: now.milliseconds - firing.date.milliseconds)
      log.debug("fired", ["app": firing.app, "id": firing.identifier, "date": firing.date.rfc3339])
    }
    routeEffects()
  }
}
