import JSONRPC
import UNModel

/// Runs JSON-RPC entries against the method table: the part of request handling that
/// needs no socket, so it is tested on its own.  Every request gets exactly one answer
/// (a result or an error); notifications get none, even when they fail.
final class Dispatcher {
  let center: Center
  let configuration: ServerConfiguration
  let log: Log

  init(center: Center, configuration: ServerConfiguration, log: Log) {
    self.center = center
    self.configuration = configuration
    self.log = log
  }

  /// The outcome of one entry: what to answer, or nil for a notification.
  enum Answer {
    case result(RequestID, JSONValue)
    case error(RequestID, RPCError)
  }

  func handle(_ entry: Incoming.Entry, from client: ClientState) -> Answer? {
    switch entry {
    case .invalid(let id, let error):
      return .error(id, error)
    case .request(let request):
      let outcome = run(request, from: client)
      guard let id = request.id else { return nil }
      switch outcome {
      case .success(let value): return .result(id, value)
      case .failure(let error): return .error(id, error)
      }
    }
  }

  private func run(_ request: Request, from client: ClientState) -> Result<JSONValue, RPCError> {
    guard let method = MethodTable.byName[request.method] else {
      return .failure(.methodNotFound(request.method))
    }
    if case .array? = request.params {
      return .failure(.invalidParams(field: "params", "must be an object (by name), not an array"))
    }
    let call = Call(params: request.params, client: client, center: center, configuration: configuration)
    do {
      return .success(try method.handle(call))
    } catch {
      return .failure(error)
    }
  }
}
