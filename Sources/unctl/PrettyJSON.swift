import JSONRPC

/// Indented JSON for people (failure diffs, tables); the wire stays compact.
enum PrettyJSON {
  static func text(_ value: JSONValue, indent: String = "") -> String {
    switch value {
    case .array(let items) where !items.isEmpty:
      let inner = indent + "  "
      return "[\n" + items.map { inner + text($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
    case .object(let members) where !members.isEmpty:
      let inner = indent + "  "
      let lines = members.map { m in
        inner + String(decoding: JSONValue.string(m.name).encoded(), as: UTF8.self) + ": "
          + text(m.value, indent: inner)
      }
      return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
    default:
      return String(decoding: value.encoded(), as: UTF8.self)
    }
  }
}
