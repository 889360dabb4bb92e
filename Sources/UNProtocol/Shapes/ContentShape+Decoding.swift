import JSONRPC
import UNModel

/// Type and shape errors are found by the shapes' decoders (`-32602` with the field);
/// the rules of the domain (unique identifiers, trigger intervals) are the model's own
/// and are checked there.
extension ContentShape {
  /// A content object from the tree, read field by field as `fields` describes it; an
  /// absent or null field keeps its default.  `stored`: read back from the store
  /// (`Params.stored`).
  public static func decode(_ value: JSONValue?, path: String = "content", stored: Bool = false) throws(RPCError)
    -> Content
  {
    guard let value else { throw RPCError.invalidParams(field: path, "required") }
    let p = try Params(value, path: path, allowed: names, stored: stored)
    var c = Content()
    for f in fields {
      let name = f.key
      switch f.kind {
      case .text(_, let set), .optionalText(_, let set):
        if let v = try f.identifier ? p.identifier(name) : p.string(name) { set(&c, v) }
      case .optionalInteger(_, let set), .integer(_, let set, _):
        if let v = try p.int(name) { set(&c, v) }
      case .score(_, let set):
        if let v = try p.double(name) { set(&c, v) }
      case .sound:
        if let s = try SoundShape.decode(p) { c.sound = s }
      case .userInfo:
        guard let info = p.value(name) else { continue }
        guard case .object = info else {
          throw RPCError.invalidParams(field: p.field(name), "expected an object, got \(info.typeName)")
        }
        c.userInfo = JSONText(bytes: info.encoded())
      case .interruptionLevel:
        if let v = try p.enumValue(name, InterruptionLevel.self) { c.interruptionLevel = v }
      case .attachments:
        if let list = try p.array(name) {
          c.attachments = try AttachmentShape.decode(list, path: p.field(name), stored: stored)
        }
      }
    }
    return c
  }
}
