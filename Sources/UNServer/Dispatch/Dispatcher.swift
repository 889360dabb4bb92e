import JSONRPC
import UNModel

/// Runs JSON-RPC entries against the method table: the part of request handling that
/// needs no socket, so it is tested on its own.  Every request gets exactly one answer
/// (a result or an error); notifications get none, even when they fail.
final class Dispatcher {
  let center: Center
  let configuration: ServerConfiguration
  let log: Log
  let metrics: Metrics
  let dates = DateTextCache()
  let warningTexts = WarningsTextCache()
  /// Set while the state directory refuses writes (`Server.writabilityChanged`): calls of
  /// kind `.change` are refused with its error before they run.
  var notWritable: NotWritable?

  struct NotWritable {
    /// The -32010 answered to changes.
    var error: RPCError
    /// The store's error (`stats.state.error`).
    var reason: String
    var since: Instant
  }
  let attachments: AttachmentStore

  init(center: Center, configuration: ServerConfiguration, log: Log, metrics: Metrics) {
    self.center = center
    self.configuration = configuration
    self.log = log
    self.metrics = metrics
    attachments = AttachmentStore(configuration: configuration, center: center)
  }

  /// The outcome of one entry: what to answer, or nil for a notification.
  enum Answer {
    case result(RequestID, JSONValue)
    case error(RequestID, RPCError)
    /// Answered later by the server (`waitFor`).
    case deferred(RequestID, WaitRequest)
    /// A result the method wrote as bytes.
    case encoded(RequestID, [UInt8])
    /// The result of a call the request reader decoded (`MethodTable.Fast`), written by
    /// the outbox straight into the connection's output (`WireResult`).
    case written(RequestID, MethodTable.Fast.FastResult)
    /// Answered (for a request with an id) once its attachments are copied; the
    /// connection's later messages wait until then (`Server+Attachments.swift`).  Boxed
    /// as `Reply.copy` is.
    indirect case copying(RequestID?, AttachmentJob)
    /// `$/cancelRequest` of the wait with the second id: the server cancels it and, for
    /// a cancel sent with an id (the first), answers whether there was one.
    case cancelling(RequestID?, RequestID)
  }

  func handle(_ entry: Incoming.Entry, from client: ClientState) -> Answer? {
    switch entry {
    case .invalid(let id, let error):
      return .error(id, error)
    case .request(let request):
      metrics.requests += 1
      // Straight to the answer, without a `Result` in between: its generic copies were a
      // tenth of a `ping`.
      let reply: Reply
      do {
        reply = try run(request, from: client)
      } catch {
        return request.id.map { .error($0, error) }
      }
      guard let id = request.id else {
        // A notification is still kept once its copies are made; it gets no answer.
        if case .copy(let job) = reply { return .copying(nil, job) }
        // A cancel is carried out whether or not it asks for an answer.
        if case .cancel(let target) = reply { return .cancelling(nil, target) }
        return nil
      }
      return answer(reply, id: id)
    }
  }

  /// The answer to a request with `id` that `reply`s.  Inlined: `handle` runs it for
  /// every request.
  @inline(__always)
  func answer(_ reply: Reply, id: RequestID) -> Answer {
    switch reply {
    case .value(let value): return .result(id, value)
    case .bytes(let bytes): return .encoded(id, bytes)
    case .wait(let wait): return .deferred(id, wait)
    case .copy(let job): return .copying(id, job)
    case .cancel(let target): return .cancelling(id, target)
    }
  }

  /// A call the request reader decoded (`MethodTable.Fast`): run as the method's `handle`
  /// would.  The answer is for the caller to send only when the call has an id (a
  /// notification gets none): not an optional, which the server destroyed through the
  /// generic value witnesses on every request (see BENCHMARKS.md).
  func handle(_ fast: MethodTable.Fast.FastCall, from client: ClientState) -> Answer {
    metrics.requests += 1
    let method = MethodTable.Fast.self
    let call = Call(params: nil, client: client, dispatcher: self, kind: method.kind)
    if method.kind == .change, let notWritable { return .error(fast.id ?? .null, notWritable.error) }
    let result: MethodTable.Fast.FastResult
    do {
      result = try method.run(fast: fast, call)
    } catch {
      return .error(fast.id ?? .null, error)
    }
    return .written(fast.id ?? .null, result)
  }

  private func run(_ request: Request, from client: ClientState) throws(RPCError) -> Reply {
    guard let method = MethodTable.method(named: request.method) else {
      // The hint is looked for only when it will be sent.
      throw .methodNotFound(
        request.method, suggestion: request.id.flatMap { _ in MethodTable.suggestion(for: request.method) })
    }
    if case .array? = request.params {
      throw .invalidParams(field: "params", "must be an object (by name), not an array")
    }
    let kind = method.kind
    if kind == .change, let notWritable { throw notWritable.error }
    return try method.handle(Call(params: request.params, client: client, dispatcher: self, kind: kind))
  }
}
