import JSONRPC
import UNModel

/// Model values → the wire shapes of proto-docs/README.md, "Shapes" (Apple's field names,
/// RFC 3339 dates) as trees, for the answers built as `JSONValue`s (events, settings) and
/// the stored rows still built as trees.  The shapes themselves are written as bytes
/// (`UNProtocol/Shapes/`).
enum ModelEncoding {
  static func date(_ instant: Instant) -> JSONValue { .string(instant.rfc3339) }

  /// A shape written by its byte encoder, as a tree, for the callers that still build
  /// one (stored rows, tests); the bytes came from our own writer, so they parse.
  static func tree(_ write: (inout [UInt8]) -> Void) -> JSONValue {
    var bytes: [UInt8] = []
    write(&bytes)
    return
      (try? bytes.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in
        try JSONParser.parse(b)
      }) ?? .null
  }
}
