import JSONRPC
import UNModel
import UVLoop

/// A connection's input while one of its requests waits for its attachments to be copied
/// (`AttachmentStore`): the connection is not read meanwhile, and the messages already
/// read after that request wait here, in order.  Other connections are served as usual.
struct ParkedInput {
  /// The waiting request's id (nil for a notification).
  var id: RequestID?
  /// When the request is an entry of a batch: the batch, to go on with afterwards.
  var batch: BatchRun?
  /// What was read after it.
  var backlog: [ParkedEvent] = []
}

/// A framer event kept for later: the message's bytes are copied out of the read buffer.
enum ParkedEvent {
  case message([UInt8])
  case oversized(limit: Int)
  case malformed(reason: String, fatal: Bool)

  init(_ event: FrameEvent) {
    switch event {
    case .message(let bytes): self = .message(Array(bytes))
    case .oversized(let limit): self = .oversized(limit: limit)
    case .malformed(let reason, let fatal): self = .malformed(reason: reason, fatal: fatal)
    }
  }
}

/// A JSON-RPC batch being run: its entries, the next one, the answers so far (they go
/// out as one array when the last entry has run).
struct BatchRun {
  var entries: [Incoming.Entry]
  var next = 0
  var answers: [Dispatcher.Answer] = []
}

extension Server {
  /// Runs a batch's entries from `run.next`; an entry with attachments parks the
  /// connection, and the batch goes on once they are copied.
  func runBatch(_ run: BatchRun, for client: ClientConnection) {
    var run = run
    while run.next < run.entries.count {
      let entry = run.entries[run.next]
      run.next += 1
      switch runner.run({ dispatcher.handle(entry, from: client.state) }) {
      case nil: break
      // A batch is answered as one array, so a wait inside it cannot be left open:
      // it is answered at once with no event.
      case .deferred(let id, _)?: run.answers.append(.result(id, .object(["event": .null])))
      case .cancelling(let id, let target)?:
        let cancelled = router.watchers.cancelWait(target, of: client)
        if let id { run.answers.append(.result(id, .object(["cancelled": .bool(cancelled)]))) }
      case .copying(let id, let job)?: return park(client, id: id, job: job, batch: run)
      case let answer?: run.answers.append(answer)
      }
    }
    if !run.answers.isEmpty { outbox.queueBatch(run.answers, to: client) }
  }

  /// A request whose attachments must be copied first: the connection stops being read
  /// until it is answered, and the copy starts with the caller's identity.
  func park(_ client: ClientConnection, id: RequestID?, job: AttachmentJob, batch: BatchRun?) {
    client.parked = ParkedInput(id: id, batch: batch)
    client.stream.stopReading()
    // The kernel's record of the peer; unknown credentials count as the daemon's own.
    let caller = client.state.peer.map {
      FileIdentity(uid: $0.uid, gid: $0.gid, groups: client.stream.peerGroups() ?? [])
    }
    // Keeping the request once its copies are made is a center operation like any other.
    let runner = self.runner
    let kept = AttachmentJob(app: job.app, sources: job.sources) { urls throws(RPCError) in
      try runner.run { () throws(RPCError) in try job.finish(urls) }
    }
    dispatcher.attachments.copy(
      kept, caller: caller, isWanted: { client.condition != .closed },
      done: { [unowned self] result in self.copied(result, for: client) })
  }

  /// The copies are made (the request kept) or failed: the answer goes out, then what
  /// the connection sent meanwhile is handled, and reading resumes.
  private func copied(_ result: Result<Reply, RPCError>, for client: ClientConnection) {
    guard let parked = client.parked else { return }
    client.parked = nil
    var answer: Dispatcher.Answer?
    switch result {
    case .success(let reply): answer = parked.id.map { dispatcher.answer(reply, id: $0) }
    case .failure(let error): answer = parked.id.map { .error($0, error) }
    }
    if var batch = parked.batch {
      if let answer { batch.answers.append(answer) }
      runBatch(batch, for: client)
    } else if let answer {
      outbox.queueAnswer(answer, to: client)
    }
    replay(parked.backlog, for: client)
  }

  /// Handles the messages read while the connection was parked, until the next one that
  /// parks it again; reading resumes when all are handled.
  private func replay(_ backlog: [ParkedEvent], for client: ClientConnection) {
    var call = MethodTable.Fast.emptyCall
    for (i, event) in backlog.enumerated() {
      if client.parked != nil {
        client.parked?.backlog.append(contentsOf: backlog[i...])
        return
      }
      guard client.condition.isLive else { return }
      switch event {
      case .message(let bytes): bytes.withUnsafeBytes { handleMessage($0, from: client, &call) }
      case .oversized(let limit): oversized(limit, from: client)
      case .malformed(let reason, let fatal): malformed(reason, fatal: fatal, from: client)
      }
    }
    guard client.parked == nil, client.condition == .reading else { return }
    do {
      try client.stream.resumeReading()
    } catch {
      connections.drop(client)
    }
  }

  /// Shutdown: requests waiting for their copies are answered with an error (nothing of
  /// them was kept), and the copier stops.
  func stopCopies() {
    for client in connections.clients.values {
      guard let parked = client.parked else { continue }
      client.parked = nil
      let error = RPCError.internalError("uncenterd is stopping; the attachments were not copied, nothing was changed")
      var answers = parked.batch?.answers ?? []
      if let id = parked.id { answers.append(.error(id, error)) }
      if parked.batch != nil {
        if !answers.isEmpty { outbox.queueBatch(answers, to: client) }
      } else if let answer = answers.first {
        outbox.queueAnswer(answer, to: client)
      }
    }
    dispatcher.attachments.close()
  }
}
