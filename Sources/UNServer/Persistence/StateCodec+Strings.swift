import JSONRPC
import UNModel

/// An app's localized strings, stored as one row: `{key: format}` with the keys sorted
/// (by their bytes), so the same table always writes the same bytes.
extension StateCodec {
  static func strings(_ table: [ExactKey: String]) -> JSONValue {
    .object(table.sorted { $0.key < $1.key }.map { JSONMember($0.key.string, .string($0.value)) })
  }

  static func decodeStrings(_ v: JSONValue) throws(Corrupt) -> [ExactKey: String] {
    guard case .object(let members) = v else { throw Corrupt(description: "strings: expected an object") }
    var out: [ExactKey: String] = [:]
    for m in members {
      guard case .string(let format) = m.value else {
        throw Corrupt(description: "strings: '\(m.name)' is not a string")
      }
      out[m.name] = format
    }
    return out
  }
}
