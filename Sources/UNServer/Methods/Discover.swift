import JSONRPC

/// `rpc.discover`: the OpenRPC document (proto-docs/openrpc.json, compiled in).
enum Discover: Method {
  static let name = "rpc.discover"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    _ = try call.params(allowed: [])
    return .value(OpenRPCDocument.value)
  }
}
