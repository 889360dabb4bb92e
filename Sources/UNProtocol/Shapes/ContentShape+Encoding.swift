import JSONRPC
import UNModel

/// Content written as bytes, as `fields` describes it: the answers' form (the state
/// rows leave out defaults: `StateCodec.changedContent`).
extension ContentShape {
  /// The content object with every field, in `fields` order: the ones
  /// that default to absent only when set.
  public static func encode(_ c: Content, _ o: inout [UInt8]) {
    var first = true
    members(c, from: 0, first: &first, &o)
    o.append(UInt8(ascii: "}"))
  }

  /// The members of `content` from the field at `start` on; `first` opens the object.
  /// `changedOnly` leaves out the fields at their defaults too (the state rows, which
  /// `decode` reads back with the defaults filled in).
  public static func members(
    _ c: Content, from start: Int, changedOnly: Bool = false, first: inout Bool, _ o: inout [UInt8]
  ) {
    func name(_ i: Int) {
      o.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
      first = false
      o.append(contentsOf: quotedKeys[i])
    }
    for i in start..<fields.count {
      switch fields[i].kind {
      case .text(let get, _):
        let v = get(c)
        if changedOnly && v.isEmpty { continue }
        name(i)
        WireBytes.string(v, &o)
      case .optionalText(let get, _):
        guard let v = get(c) else { continue }
        name(i)
        WireBytes.string(v, &o)
      case .optionalInteger(let get, _):
        guard let v = get(c) else { continue }
        name(i)
        WireBytes.integer(v, &o)
      case .integer(let get, _, let initial):
        let v = get(c)
        if changedOnly && v == initial { continue }
        name(i)
        WireBytes.integer(v, &o)
      case .score(let get, _):
        let v = get(c)
        if changedOnly && v == 0 { continue }
        name(i)
        if v == 0 { o.append(UInt8(ascii: "0")) } else { WireBytes.number(.double(v), &o) }
      case .sound:
        guard let s = c.sound else { continue }
        name(i)
        SoundShape.encode(s, &o)
      case .userInfo:
        if changedOnly && c.userInfo == JSONText.emptyObject { continue }
        name(i)
        o.append(contentsOf: c.userInfo.bytes)
      case .interruptionLevel:
        if changedOnly && c.interruptionLevel == .active { continue }
        name(i)
        WireBytes.string(c.interruptionLevel.rawValue, &o)
      case .attachments:
        guard !c.attachments.isEmpty else { continue }
        name(i)
        AttachmentShape.encode(c.attachments, &o)
      }
    }
  }
}
