import JSONRPC
import UNModel

extension ScheduleLocalFastPath {
  /// The content fields as `ContentShape` describes them, read into `c` (a new
  /// `Content`) as `ContentShape.decode` reads them: null counts as absent, a field may
  /// appear once, and `userInfo` is kept as its compact text.  False sends the request
  /// to the general path, which reads the same description from the tree and says
  /// precisely what was wrong (an object `sound` and `attachments` always go there).
  static func readContent(_ r: inout JSONPullReader, into c: inout Content, maxDepth: Int) -> Bool {
    guard r.beginObject() else { return false }
    var first = true
    // Bit k: the table's field k.  The fields nearly every request sends are read
    // straight into their stored properties, each with a bit of its own above the
    // table's: the search over the table and the call through its setter closure cost
    // more than the string itself.
    var seen: UInt64 = 0
    let title: UInt64 = 1 << 32
    let body: UInt64 = 1 << 33
    let category: UInt64 = 1 << 34
    let thread: UInt64 = 1 << 35
    let userInfo: UInt64 = 1 << 36
    while true {
      let name: JSONPullReader.Name
      switch r.nextMember(&first) {
      case .other: return false
      case .end: return true
      case .name(let n): name = n
      }
      let bit: UInt64
      if name.is("title") {
        bit = title
      } else if name.is("body") {
        bit = body
      } else if name.is("categoryIdentifier") {
        bit = category
      } else if name.is("threadIdentifier") {
        bit = thread
      } else if name.is("userInfo") {
        bit = userInfo
      } else {
        guard let index = ContentShape.index(where: { name.is($0) }) else { return false }
        bit = 1 << UInt64(index)
      }
      guard seen & bit == 0 else { return false }
      seen |= bit
      if r.null() { continue }
      switch bit {
      case title:
        guard let s = r.string() else { return false }
        c.title = s
      case body:
        guard let s = r.string() else { return false }
        c.body = s
      case category:
        guard let s = r.string() else { return false }
        c.categoryIdentifier = s
      case thread:
        guard let s = r.string() else { return false }
        c.threadIdentifier = s
      case userInfo:
        guard readUserInfo(&r, into: &c, maxDepth: maxDepth) else { return false }
      default:
        guard readTableField(&r, ContentShape.fields[bit.trailingZeroBitCount].kind, into: &c, maxDepth: maxDepth)
        else { return false }
      }
    }
  }

  /// A field other than the five read directly, through the table's accessors.
  private static func readTableField(
    _ r: inout JSONPullReader, _ kind: ContentShape.Kind, into c: inout Content, maxDepth: Int
  ) -> Bool {
    switch kind {
    case .text(_, let set), .optionalText(_, let set):
      guard let s = r.string() else { return false }
      set(&c, s)
    case .optionalInteger(_, let set), .integer(_, let set, _):
      guard let v = int(&r) else { return false }
      set(&c, v)
    case .score(_, let set):
      guard let d = r.double(), d.isFinite else { return false }
      set(&c, d)
    case .userInfo:
      return readUserInfo(&r, into: &c, maxDepth: maxDepth)
    case .sound:
      guard let s = r.string() else { return false }
      c.sound = s == "default" ? .default : .named(s)
    case .interruptionLevel:
      guard let s = r.string(), let level = InterruptionLevel(rawValue: s) else { return false }
      c.interruptionLevel = level
    case .attachments:
      return false
    }
    return true
  }

  /// An object, kept as its compact text.
  @inline(__always)
  private static func readUserInfo(_ r: inout JSONPullReader, into c: inout Content, maxDepth: Int) -> Bool {
    // The parser counts the envelope, params and content as three open containers.
    guard r.peek() == UInt8(ascii: "{"), let text = r.compactValue(maxDepth: maxDepth - 3) else { return false }
    c.userInfo = JSONText(bytes: text)
    return true
  }

  /// An integer as `Params.int` accepts it (`3`, `3.0`, `3e0`).
  private static func int(_ r: inout JSONPullReader) -> Int? {
    guard let text = r.numberText() else { return nil }
    return JSONValue.number(text).intValue
  }
}
