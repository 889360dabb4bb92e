import JSONRPC
import UNModel
import UVLoop

extension Server {
  func accept(from server: PipeServer) {
    let stream: StreamConnection
    do {
      stream = try server.accept()
    } catch {
      log.warn("accept_failed", ["error": "\(error)"])
      return
    }
    if clients.count >= configuration.maxConnections {
      refuse(stream)
      return
    }
    let id = nextSessionID
    nextSessionID += 1
    let peer = stream.peerCredentials().map { ClientState.Peer(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
    let client = ClientConnection(
      stream: stream, state: ClientState(id: id, peer: peer), maxMessageBytes: configuration.maxMessageBytes)
    clients[id] = client
    metrics.connections = clients.count
    metrics.connectionsAccepted += 1
    log.debug(
      "connected",
      ["conn": "\(id)", "pid": peer.map { "\($0.pid)" } ?? "-", "uid": peer.map { "\($0.uid)" } ?? "-"])
    stream.onDrain = { [unowned self, unowned client] in self.resume(client) }
    stream.onWriteError = { [unowned self, unowned client] error in
      self.log.debug("write_failed", ["conn": "\(client.state.id)", "error": "\(error)"])
      self.drop(client)
    }
    do {
      try stream.startReading(
        onData: { [unowned self, unowned client] bytes in self.received(bytes, from: client) },
        onEnd: { [unowned self, unowned client] error in
          if let error {
            self.log.debug("read_failed", ["conn": "\(client.state.id)", "error": "\(error)"])
          } else {
            self.endOfStream(from: client)
          }
          self.beginClosing(client)
        })
    } catch {
      log.warn("read_start_failed", ["conn": "\(id)", "error": "\(error)"])
      drop(client)
    }
  }

  /// The client closed its side: a last unterminated line is still a request to answer.
  func endOfStream(from client: ClientConnection) {
    guard !client.closing else { return }
    client.framer.finish { event in
      if case .message(let message) = event { handleMessage(message, from: client) }
    }
  }

  /// Over `--max-connections`: one polite error, then the connection is closed.
  private func refuse(_ stream: StreamConnection) {
    log.warn("connection_refused", ["reason": "maxConnections", "value": "\(configuration.maxConnections)"])
    var bytes: [UInt8] = []
    let error = RPCError.limitExceeded(
      limit: "maxConnections", value: configuration.maxConnections,
      "too many connections (maxConnections is \(configuration.maxConnections)); try again later")
    RPCEncoder.appendError(id: .null, error: error, to: &bytes)
    bytes.append(0x0A)
    stream.write(bytes)
    do {
      try stream.shutdown { [stream] _ in stream.close() }
    } catch {
      stream.close()
    }
  }

  /// Bytes from a client: frame them, decode each message, run it, queue the answers.
  func received(_ bytes: UnsafeRawBufferPointer, from client: ClientConnection) {
    guard !client.closing else { return }
    if client.framing == nil { client.framing = Framer.detectFraming(bytes) }
    client.framer.feed(bytes) { event in
      switch event {
      case .message(let message):
        handleMessage(message, from: client)
        flushEarly(client)
      case .oversized(let limit):
        let error = RPCError.limitExceeded(
          limit: "maxMessageBytes", value: limit, "message larger than maxMessageBytes (\(limit) bytes); skipped")
        queueAnswer(.error(.null, error), to: client)
      case .malformed(let reason, let fatal):
        queueAnswer(.error(.null, .parseError(reason)), to: client)
        if fatal { beginClosing(client) }
      }
    }
  }

  private func handleMessage(_ message: UnsafeRawBufferPointer, from client: ClientConnection) {
    if let fast = ScheduleLocalFastPath.decode(message, maxDepth: configuration.maxNestingDepth) {
      let answer = dispatcher.handle(fast, from: client.state)
      routeEffects()
      if let answer { queueAnswer(answer, to: client) }
      return
    }
    switch RPCDecoder.decode(message, maxDepth: configuration.maxNestingDepth) {
    case .single(let entry):
      let answer = dispatcher.handle(entry, from: client.state)
      routeEffects()
      switch answer {
      case nil: break
      case .deferred(let id, let wait)?: startWait(wait, id: id, for: client)
      case let answer?: queueAnswer(answer, to: client)
      }
    case .batch(let entries) where entries.count > configuration.maxBatch:
      let error = RPCError.limitExceeded(
        limit: "maxBatch", value: configuration.maxBatch,
        "batch of \(entries.count) entries; maxBatch is \(configuration.maxBatch)")
      queueAnswer(.error(.null, error), to: client)
    case .batch(let entries):
      var answers: [Dispatcher.Answer] = []
      for entry in entries {
        switch dispatcher.handle(entry, from: client.state) {
        case nil: break
        // A batch is answered as one array, so a wait inside it cannot be left open:
        // it is answered at once with no event.
        case .deferred(let id, _)?: answers.append(.result(id, .object(["event": .null])))
        case let answer?: answers.append(answer)
        }
        routeEffects()
      }
      if !answers.isEmpty { queueBatch(answers, to: client) }
    }
  }

  /// Its answers drained: read its requests again.
  func resume(_ client: ClientConnection) {
    guard client.paused else { return }
    client.paused = false
    metrics.pausedConnections -= 1
    guard !client.closing else { return }
    do {
      try client.stream.resumeReading()
    } catch {
      drop(client)
    }
  }

  /// No more reading from this client: detach it from the center, flush what it is owed,
  /// then half-close and close once the writes are done.
  func beginClosing(_ client: ClientConnection) {
    guard !client.closing else { return }
    client.closing = true
    if client.paused {
      client.paused = false
      metrics.pausedConnections -= 1
    }
    client.stream.stopReading()
    center.detach(client.state.id)
    routeEffects()
    cancelWaits(of: client)
    markDirty(client)
  }

  /// Closes at once (write error, or shutdown timeout).
  func drop(_ client: ClientConnection) {
    if client.paused {
      client.paused = false
      metrics.pausedConnections -= 1
    }
    client.closing = true
    center.detach(client.state.id)
    clients[client.state.id] = nil
    routeEffects()
    cancelWaits(of: client)
    metrics.connections = clients.count
    client.stream.close()
  }

  /// After its last flush: shut the write side down once queued writes are sent, then close.
  func finishClosing(_ client: ClientConnection) {
    clients[client.state.id] = nil
    metrics.connections = clients.count
    do {
      try client.stream.shutdown { [stream = client.stream] _ in stream.close() }
    } catch {
      client.stream.close()
    }
  }
}
