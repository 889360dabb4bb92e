import JSONRPC

/// The OpenRPC document served by `rpc.discover`.  Generated from
/// `proto-docs/openrpc.json` by `make openrpc`; a test checks the two are identical.
enum OpenRPCDocument {
  static let value: JSONValue = {
    let bytes = Array(text.utf8)
    return (try? bytes.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in try JSONParser.parse(b) })
      ?? .null
  }()

  static let text = #"""
    {"openrpc":"1.2.6","info":{"title":"uncenter","version":"0.1.0"},"methods":[]}
    """#
}
