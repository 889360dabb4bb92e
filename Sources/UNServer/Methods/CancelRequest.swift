import JSONRPC

/// `$/cancelRequest {id}` (LSP's): the connection's `waitFor` with that id, still
/// waiting, is answered at once with `-32800`.  Other calls are answered as soon as they
/// have run, so there is nothing else to cancel; an id that is not waiting (answered
/// already, unknown, or another connection's) is ignored, as LSP does.  The server looks
/// for the wait (`EventWatchers.cancelWait`); sent with an id, the cancel is answered
/// `{cancelled}`.
enum CancelRequest: Method {
  static let name = "$/cancelRequest"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["id"])
    switch p.value("id") {
    case .string(let text)?: return .cancel(.string(text))
    case .number(let text)?: return .cancel(.number(text))
    case nil: throw RPCError.invalidParams(field: "id", "required")
    case let other?: throw RPCError.invalidParams(field: "id", "expected a string or a number, got \(other.typeName)")
    }
  }
}
