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
    if connections.count >= configuration.maxConnections {
      refuse(stream)
      return
    }
    let peer = stream.peerCredentials().map { ClientState.Peer(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
    let client = connections.add(stream, peer: peer, maxMessageBytes: configuration.maxMessageBytes)
    let id = client.state.id
    log.debug(
      "connected",
      ["conn": "\(id)", "pid": peer.map { "\($0.pid)" } ?? "-", "uid": peer.map { "\($0.uid)" } ?? "-"])
    stream.onDrain = { [connections, unowned client] in connections.resume(client) }
    stream.onWriteError = { [unowned self, unowned client] error in
      self.log.debug("write_failed", ["conn": "\(client.state.id)", "error": "\(error)"])
      self.connections.drop(client)
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
          self.connections.drain(client)
        })
    } catch {
      log.warn("read_start_failed", ["conn": "\(id)", "error": "\(error)"])
      connections.drop(client)
    }
  }

  /// The client closed its side: a last unterminated line is still a request to answer.
  func endOfStream(from client: ClientConnection) {
    guard client.condition.isLive else { return }
    var call = MethodTable.Fast.emptyCall
    client.framer.finish { event in
      if case .message(let message) = event { handleMessage(message, from: client, &call) }
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
    guard client.condition.isLive else { return }
    readsThisIteration &+= 1
    if client.framing == nil { client.framing = Framer.detectFraming(bytes) }
    var earlyMark = Outbox.earlyFlushBytes
    // The fast method's call (`MethodTable.Fast`), read into for each message of this read.
    var call = MethodTable.Fast.emptyCall
    client.framer.feed(bytes) { event in
      // A request can end the connection (over the outbound limit during a long
      // advance): the rest of what it sent is not handled.
      guard client.condition.isLive else { return }
      // A request of this connection waits for its attachments: the rest waits behind it.
      if client.parked != nil { return client.parked!.backlog.append(ParkedEvent(event)) }
      switch event {
      case .message(let message):
        handleMessage(message, from: client, &call)
        outbox.flushEarly(client, mark: &earlyMark)
      case .oversized(let limit): oversized(limit, from: client)
      case .malformed(let reason, let fatal): malformed(reason, fatal: fatal, from: client)
      }
    }
    // --state: a large batch is committed while the other connections' input is handled
    // (Committer.submitIfLarge); the output queued so far is held behind it.
    if let commits, commits.submitIfLarge() { outbox.flushAll() }
  }

  func oversized(_ limit: Int, from client: ClientConnection) {
    let error = RPCError.limitExceeded(
      limit: "maxMessageBytes", value: limit, "message larger than maxMessageBytes (\(limit) bytes); skipped")
    outbox.queueAnswer(.error(.null, error), to: client)
  }

  func malformed(_ reason: String, fatal: Bool, from client: ClientConnection) {
    outbox.queueAnswer(.error(.null, .parseError(reason)), to: client)
    if fatal { connections.drain(client) }
  }

  /// `call` is where the fast path reads a call of `MethodTable.Fast` (`RequestFastPath.read`).
  func handleMessage(
    _ message: UnsafeRawBufferPointer, from client: ClientConnection, _ call: inout MethodTable.Fast.FastCall
  ) {
    switch RequestFastPath.read(message, maxDepth: configuration.maxNestingDepth, scheduleLocal: &call) {
    case .scheduleLocal:
      let answer = runner.run { dispatcher.handle(call, from: client.state) }
      if call.id != nil { outbox.queueAnswer(answer, to: client) }
      return
    case .request(let request):
      handleSingle(.request(request), from: client)
      return
    case .declined:
      break
    }
    switch RPCDecoder.decode(message, maxDepth: configuration.maxNestingDepth) {
    case .single(let entry):
      handleSingle(entry, from: client)
    case .batch(let entries) where entries.count > configuration.maxBatch:
      let error = RPCError.limitExceeded(
        limit: "maxBatch", value: configuration.maxBatch,
        "batch of \(entries.count) entries; maxBatch is \(configuration.maxBatch)")
      outbox.queueAnswer(.error(.null, error), to: client)
    case .batch(let entries):
      runBatch(BatchRun(entries: entries), for: client)  // Server+Attachments.swift
    }
  }

  private func handleSingle(_ entry: Incoming.Entry, from client: ClientConnection) {
    let answer = runner.run { dispatcher.handle(entry, from: client.state) }
    guard let answer else { return }
    if case .deferred(let id, let wait) = answer {
      router.watchers.startWait(wait, id: id, for: client)
    } else if case .copying(let id, let job) = answer {
      park(client, id: id, job: job, batch: nil)
    } else if case .cancelling(let id, let target) = answer {
      let cancelled = router.watchers.cancelWait(target, of: client)
      if let id { outbox.queueAnswer(.result(id, .object(["cancelled": .bool(cancelled)])), to: client) }
    } else {
      outbox.queueAnswer(answer, to: client)
    }
  }
}
