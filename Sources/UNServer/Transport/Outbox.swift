import JSONRPC
import UNModel
import UVLoop

/// What the daemon writes to its connections: answers and callbacks are encoded into a
/// connection's output during the iteration, and written once per connection at its
/// end (connections with callbacks first, so a callback goes out before the answer of
/// the call that caused it), within the outbound limits.  With `--state`, output waits
/// for the commit of the changes it reports (`OutputGate`).
///
/// Loop-confined, owned by `Server`.
final class Outbox {
  let connections: Connections
  let configuration: ServerConfiguration
  let log: Log
  /// With `--state`: which commit each iteration's output waits for.
  let order: OutputGate?
  /// The dispatcher's text caches, for the results that write themselves here (`WireResult`).
  let dates: DateTextCache
  let warningTexts: WarningsTextCache
  /// Reused for encoding one message before framing it.
  private var scratch: [UInt8] = []
  /// Reused for the dirty list of one flush.
  private var flushing: [ClientConnection] = []

  init(
    connections: Connections, configuration: ServerConfiguration, log: Log, order: OutputGate?,
    dates: DateTextCache, warningTexts: WarningsTextCache
  ) {
    self.connections = connections
    self.dates = dates
    self.warningTexts = warningTexts
    self.configuration = configuration
    self.log = log
    self.order = order
  }

  /// Encodes an answer in the client's framing and queues it.
  func queueAnswer(_ answer: Dispatcher.Answer, to client: ClientConnection) {
    if client.framingOrDefault == .newlineDelimited {
      // Encoded straight into the connection's output: a line needs no length up front.
      encode(answer, into: &client.output)
      client.output.append(0x0A)
      connections.markDirty(client)
      return
    }
    scratch.removeAll(keepingCapacity: true)
    encode(answer, into: &scratch)
    frame(to: client)
  }

  /// A batch's answers as one JSON array.
  func queueBatch(_ answers: [Dispatcher.Answer], to client: ClientConnection) {
    scratch.removeAll(keepingCapacity: true)
    scratch.append(UInt8(ascii: "["))
    for (i, answer) in answers.enumerated() {
      if i > 0 { scratch.append(UInt8(ascii: ",")) }
      encode(answer, into: &scratch)
    }
    scratch.append(UInt8(ascii: "]"))
    frame(to: client)
  }

  func encode(_ answer: Dispatcher.Answer, into buffer: inout [UInt8]) {
    switch answer {
    case .result(let id, let value): RPCEncoder.appendResult(id: id, result: value, to: &buffer)
    case .error(let id, let error): RPCEncoder.appendError(id: id, error: error, to: &buffer)
    case .encoded(let id, let bytes): RPCEncoder.appendResult(id: id, encodedResult: bytes, to: &buffer)
    case .written(let id, let result):
      RPCEncoder.appendResult(id: id, to: &buffer) { result.write(into: &$0, dates: dates, warnings: warningTexts) }
    case .deferred, .copying, .cancelling: assertionFailure("a deferred answer is not encoded")
    }
  }

  private func frame(to client: ClientConnection) {
    scratch.withUnsafeBytes { Framer.appendFrame($0, framing: client.framingOrDefault, to: &client.output) }
    connections.markDirty(client)
  }

  /// Queues an encoded callback; such connections are flushed first.
  func queueCallback(_ message: [UInt8], to client: ClientConnection) {
    message.withUnsafeBytes { Framer.appendFrame($0, framing: client.framingOrDefault, to: &client.output) }
    client.hasCallbacks = true
    connections.markDirty(client)
  }

  /// End of the iteration: every dirty connection's output goes out, or waits for its
  /// commit.
  func flushAll() {
    guard !connections.dirty.isEmpty else { return }
    connections.takeDirty(into: &flushing)
    for client in flushing where client.hasCallbacks { flush(client) }
    for client in flushing where !client.hasCallbacks { flush(client) }
    flushing.removeAll(keepingCapacity: true)
  }

  private func flush(_ client: ClientConnection) {
    let callbacks = client.hasCallbacks
    client.isDirty = false
    client.hasCallbacks = false
    guard !client.stream.isClosing else { return }
    if let order, order.hold(client, callbacks: callbacks) { return }
    guard writeOutput(client) else { return }
    connections.finishIfDrained(client)
  }

  /// In the middle of a long run of firings (`Center.onEffectBacklog`), after its effects
  /// so far were routed: in memory, the output so far is written now, within the
  /// outbound limits, rather than gathered for the whole run.  With `--state` it must
  /// wait for the commit at the end of the run; a connection whose output already passed
  /// the outbound hard limit could never be sent it within the limit, and is dropped
  /// now instead of holding the rest of the run's output too.
  func flushBacklog() {
    guard order != nil else { return flushAll() }
    for client in connections.dirty where client.output.count > configuration.outboundHardLimit {
      guard client.condition != .closed else { continue }
      disconnect(client, queued: client.output.count)
    }
  }

  /// A commit became durable: the output that waited for it goes out, connections with
  /// callbacks among it first.  Only the front of `output` that waited goes: the rest
  /// (later commits' output, this iteration's answers) must not overtake it.
  func release(upTo batch: UInt64, of clients: [ClientConnection]) {
    for callbacksFirst in [true, false] {
      for client in clients {
        let ready = client.held.ready(upTo: batch)
        guard ready.count > 0, ready.callbacks == callbacksFirst else { continue }
        client.held.removeFirst(ready.count, end: ready.end)
        guard client.condition != .closed, !client.stream.isClosing else {
          removeFront(ready.end, of: client)
          continue
        }
        guard writeFront(ready.end, of: client) else { continue }
        removeFront(ready.end, of: client)
        connections.finishIfDrained(client)
      }
    }
  }

  /// Hands the first `count` bytes of the connection's output to the socket; false when
  /// that dropped the connection.  Written from a copy of the array (a reference, no bytes
  /// copied), not in place: dropping the connection empties `output` meanwhile.
  private func writeFront(_ count: Int, of client: ClientConnection) -> Bool {
    let output = client.output
    return output.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: client) }
  }

  /// The first `count` bytes of the connection's output were written (or are not wanted).
  private func removeFront(_ count: Int, of client: ClientConnection) {
    if count >= client.output.count {
      clearOutput(client)
    } else {
      client.output.removeSubrange(..<count)
    }
  }

  /// In memory (no commit to wait for), a connection that sends a long burst of requests
  /// gets the answers written as they pile up, so it reads them and sends more while the
  /// rest of the burst is handled, instead of waiting for the whole burst.  Only when no
  /// callback is queued anywhere: callbacks must go out before the answers that caused
  /// them.  `mark` starts at `earlyFlushBytes` for each read and grows fourfold after
  /// every early write: the first answers of a burst go out at once, the later ones in one
  /// or two large writes.  Each write to a client that sleeps in `read` costs a wake-up,
  /// a large part of the daemon's time with one pipelining client, so fewer writes per
  /// read buy throughput as long as the first one still comes early: the first answers of
  /// a read go out early and the rest when the read is done (a mark that only doubled
  /// wrote more often and was slower; see BENCHMARKS.md).
  func flushEarly(_ client: ClientConnection, mark: inout Int) {
    guard order == nil, client.output.count >= mark, client.condition.isLive,
      !client.stream.isClosing, connections.dirty.count == 1, !client.hasCallbacks
    else { return }
    mark &*= 4
    _ = writeOutput(client)
  }

  /// About 35 `ping` answers or 10 `scheduleLocal` ones: a pipeline of 64 requests gets
  /// its first answers back while the rest are handled, and the two processes work at
  /// once instead of taking turns (the largest gain for a single pipelining client).  At
  /// 4096 bytes a `ping` pipeline of 64 never reached the mark, and 2048 cost `ping` more
  /// than it gave `scheduleLocal` (see BENCHMARKS.md).
  static let earlyFlushBytes = 1536

  /// Hands the connection's output to the socket; false when that dropped the connection.
  private func writeOutput(_ client: ClientConnection) -> Bool {
    guard !client.output.isEmpty else { return true }
    guard writeFront(client.output.count, of: client) else { return false }
    clearOutput(client)
    return true
  }

  /// Empties the connection's output, keeping its room for the next answers unless it
  /// grew large.
  private func clearOutput(_ client: ClientConnection) {
    if client.output.capacity > 1 << 20 {
      client.output = []
    } else {
      client.output.removeAll(keepingCapacity: true)
    }
  }

  /// Writes bytes within the outbound limits: over the hard limit the connection is
  /// dropped (false), over the soft limit its reading pauses.
  private func write(_ bytes: UnsafeRawBufferPointer, to client: ClientConnection) -> Bool {
    let waiting = client.stream.queuedWriteBytes + bytes.count
    if waiting > configuration.outboundHardLimit {
      disconnect(client, queued: waiting)
      return false
    }
    client.stream.write(bytes)
    if client.stream.queuedWriteBytes > configuration.outboundSoftLimit {
      // It is not reading its answers: stop reading its requests until they drain.
      connections.pause(client)
    }
    return true
  }

  /// Over the outbound hard limit: what it is owed is discarded with it.
  private func disconnect(_ client: ClientConnection, queued: Int) {
    log.warn(
      "client_disconnected",
      [
        "conn": "\(client.state.id)", "reason": "outboundHardLimit", "queued": "\(queued)",
        "limit": "\(configuration.outboundHardLimit)",
      ])
    connections.drop(client)
  }
}
