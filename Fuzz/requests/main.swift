// Fuzz harness `requests`: JSON-RPC texts through RPCDecoder and the Dispatcher.
//
// Compiled into the UNServer module (see Fuzz/build.sh) so it can use the internal
// Dispatcher, ClientState and Metrics, exactly as Tests/UNServerTests/DispatcherTests does.
//
// The input is split on '\n' into at most 64 messages (like the newline framing), all
// sent by the same few connections to one Center with a manual clock, so `hello` then
// `scheduleLocal` then `advanceClock` sequences keep their state.  A message may start
// with "@N " to send it from connection N (0...3).  Checked for every entry:
// - a request with an id gets exactly one answer with that id; a notification none;
// - a message the scheduleLocal fast path decodes is decoded identically by the
//   general path (RPCDecoder, then the method's own param reading);
// - an answer and every callback of the effects encode to JSON that parses back and has
//   no raw newline byte;
// - reload equals live: every change is committed to a store after each message, and a
//   center loaded from it lists what the live one lists (`StateListing`, shared with
//   Tests/UNServerTests/ReloadEqualsLiveTests through Tests/UNServerTests/ReloadCheck.swift).
//   A line `@N !close` closes connection N (its responses queue, its extension work is
//   released).
import JSONRPC
import UNModel
import UNStore

private let t0 = Instant(milliseconds: 1_767_254_400_000)  // 2026-01-01T08:00:00Z

private func fail(_ message: String) -> Never {
  fatalError("requests invariant failed: \(message)")
}

private func checkEncoded(_ bytes: [UInt8], _ what: String) {
  if bytes.contains(0x0A) { fail("\(what) contains a raw newline") }
  do {
    _ = try JSONParser.parse(bytes, maxDepth: 100_000)
  } catch {
    fail("\(what) does not parse back: \(error.reason): \(String(decoding: bytes.prefix(300), as: UTF8.self))")
  }
}

private func check(_ answer: Dispatcher.Answer?, for entry: Incoming.Entry) {
  let expected: RequestID?
  switch entry {
  case .invalid(let id, _): expected = id
  case .request(let r): expected = r.id
  }
  guard let answer else {
    if case .request(let r) = entry, r.id == nil { return }
    fail("no answer for \(entry)")
  }
  var out: [UInt8] = []
  let id: RequestID
  switch answer {
  case .result(let i, let value):
    id = i
    RPCEncoder.appendResult(id: i, result: value, to: &out)
  case .error(let i, let error):
    id = i
    RPCEncoder.appendError(id: i, error: error, to: &out)
  case .deferred(let i, _):
    id = i
    RPCEncoder.appendResult(id: i, result: .object(["event": .null]), to: &out)
  case .encoded(let i, let bytes):
    id = i
    // A result written straight into bytes must itself be one valid JSON text.
    do {
      _ = try JSONParser.parse(bytes)
    } catch {
      fail("encoded result is not JSON: \(error)")
    }
    RPCEncoder.appendResult(id: i, encodedResult: bytes, to: &out)
  case .copying:
    fail("a request was left copying its attachments")
  case .cancelling(let i, _):
    // The server answers a cancel with an id once it has looked for the wait; a cancel
    // notification is carried out without an answer.
    guard let i else {
      if case .request(let r) = entry, r.id == nil { return }
      fail("a cancel of \(entry) lost its id")
    }
    id = i
    RPCEncoder.appendResult(id: i, result: .object(["cancelled": .bool(false)]), to: &out)
  case .written(let i, let result):
    // Only the server's fast path answers so; written here as the outbox writes it.
    id = i
    RPCEncoder.appendResult(id: i, to: &out) {
      result.write(into: &$0, dates: DateTextCache(), warnings: WarningsTextCache())
    }
  }
  if id != expected { fail("answer id \(id) for entry with id \(String(describing: expected))") }
  if case .request(let r) = entry, r.id == nil { fail("a notification was answered") }
  checkEncoded(out, "answer")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let center = Center(clock: ManualClock(t0))
  center.changes.isEnabled = true
  let store = MemoryStore()
  let persistence = Persistence(store: store)
  let metrics = Metrics()
  var configuration = ServerConfiguration()
  configuration.daemonUID = 1000
  let dispatcher = Dispatcher(
    center: center, configuration: configuration, log: Log(level: .error, journal: false), metrics: metrics)
  // Connection 3 has a foreign uid, to reach the ownership checks.
  let clients = (0..<4).map { ClientState(id: $0 + 1, peer: .init(pid: 1, uid: $0 == 3 ? 2000 : 1000, gid: 1000)) }

  let input = UnsafeBufferPointer(start: data, count: size)
  var messages = input.split(separator: 0x0A, maxSplits: 64, omittingEmptySubsequences: true)
  if messages.count > 64 { messages.removeLast(messages.count - 64) }
  for var message in messages {
    var client = clients[0]
    if message.count >= 3, message.first == UInt8(ascii: "@"), message[message.startIndex + 2] == 0x20 {
      client = clients[Int(message[message.startIndex + 1] & 3)]
      message = message.dropFirst(3)
    }
    if message.elementsEqual("!close".utf8) {
      center.detach(client.id)
      client.hello = nil
      _ = center.takeEffects()
      commitAndCompare(center, persistence, store)
      continue
    }
    let incoming = UnsafeRawBufferPointer(
      rebasing: UnsafeRawBufferPointer(input)[message.startIndex..<message.endIndex])
    // The scheduleLocal fast path accepts only what the general path decodes the same way
    // (at the daemon's depth limit and at a small one, to reach the nesting checks).
    for depth in [configuration.maxNestingDepth, 5] {
      if let fast = ScheduleLocalFastPath.decode(incoming, maxDepth: depth),
        fast != ScheduleLocalFastPath.reference(incoming, maxDepth: depth)
      {
        fail(
          "fast path decoded \(fast), the general path \(String(describing: ScheduleLocalFastPath.reference(incoming, maxDepth: depth)))"
        )
      }
      // Every other request the envelope fast path takes is the general path's request.
      if case .request(let fast) = RequestFastPath.decode(incoming, maxDepth: depth) {
        let general = RPCDecoder.decode(incoming, maxDepth: depth)
        if general != .single(.request(fast)) { fail("fast path decoded \(fast), the general path \(general)") }
      }
    }
    let entries: [Incoming.Entry]
    switch RPCDecoder.decode(incoming, maxDepth: configuration.maxNestingDepth) {
    case .single(let e): entries = [e]
    case .batch(let list): entries = list
    }
    for entry in entries {
      // Attachments are copied before the answer (on this thread, as the process).
      let answer = dispatcher.handleCopying(entry, from: client)
      check(answer, for: entry)
    }
    for effect in center.takeEffects() {
      switch effect {
      case .callback(let session, let callback):
        if center.sessions[session] == nil && !(1...4).contains(session) {
          fail("callback for unknown session \(session)")
        }
        var bytes: [UInt8] = []
        CallbackMessage.append(callback, to: &bytes)
        checkEncoded(bytes, "callback \(CallbackMessage.method(of: callback))")
      case .event(let event):
        checkEncoded(ModelEncoding.event(event).encoded(), "event")
      }
    }
    commitAndCompare(center, persistence, store)
  }
  return 0
}

private func commitAndCompare(_ center: Center, _ persistence: Persistence, _ store: MemoryStore) {
  do {
    try persistence.commit(center)
  } catch {
    fail("commit failed: \(error)")
  }
  if let mismatch = ReloadCheck.mismatch(center, store) { fail("reload differs from live:\n\(mismatch)") }
}
