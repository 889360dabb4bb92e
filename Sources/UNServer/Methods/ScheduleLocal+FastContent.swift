import JSONRPC
import UNModel

extension ScheduleLocalFastPath {
  /// The content fields as `ContentShape` describes them, read as `ContentShape.decode`
  /// reads them: null counts as absent, a field may appear once, and `userInfo` is kept
  /// as its compact text.  Nil sends the request to the general path, which reads the
  /// same description from the tree and says precisely what was wrong (an object
  /// `sound` and `attachments` always go there).
  static func content(_ r: inout JSONPullReader, maxDepth: Int) -> Content? {
    guard r.beginObject() else { return nil }
    var first = true
    var seen: UInt32 = 0
    var c = Content()
    while true {
      let name: JSONPullReader.Name
      switch r.nextMember(&first) {
      case .other: return nil
      case .end: return c
      case .name(let n): name = n
      }
      guard let index = ContentShape.index(where: { name.is($0) }) else { return nil }
      let bit = UInt32(1) << UInt32(index)
      guard seen & bit == 0 else { return nil }
      seen |= bit
      if r.null() { continue }
      switch ContentShape.fields[index].kind {
      case .text(_, let set), .optionalText(_, let set):
        guard let s = r.string() else { return nil }
        set(&c, s)
      case .optionalInteger(_, let set), .integer(_, let set, _):
        guard let v = int(&r) else { return nil }
        set(&c, v)
      case .score(_, let set):
        guard let d = r.double(), d.isFinite else { return nil }
        set(&c, d)
      case .userInfo:
        // The parser counts the envelope, params and content as three open containers.
        guard r.peek() == UInt8(ascii: "{"), let text = r.compactValue(maxDepth: maxDepth - 3) else { return nil }
        c.userInfo = JSONText(bytes: text)
      case .sound:
        guard let s = r.string() else { return nil }
        c.sound = s == "default" ? .default : .named(s)
      case .interruptionLevel:
        guard let s = r.string(), let level = InterruptionLevel(rawValue: s) else { return nil }
        c.interruptionLevel = level
      case .attachments:
        return nil
      }
    }
  }

  /// An integer as `Params.int` accepts it (`3`, `3.0`, `3e0`).
  private static func int(_ r: inout JSONPullReader) -> Int? {
    guard let text = r.numberText() else { return nil }
    return JSONValue.number(text).intValue
  }
}
