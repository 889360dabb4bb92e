import JSONRPC
import UNModel
import UNProtocol

extension ScheduleLocalFastPath {
  /// The content fields as `ContentShape` describes them, read into the content of `c`
  /// (a new request) as `ContentShape.decode` reads them: null counts as absent, a field may
  /// appear once, and `userInfo` is kept as its compact text.  False sends the request
  /// to the general path, which reads the same description from the tree and says
  /// precisely what was wrong (an object `sound` and `attachments` always go there, and
  /// an identifier with U+0000, which it refuses).
  static func readContent(_ r: inout JSONPullReader, into c: inout BorrowedRequest, maxDepth: Int) -> Bool {
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
    // The field read last: the next is guessed in the order clients usually send them.
    var last: UInt64 = 0
    while true {
      let name: JSONPullReader.Name
      let member: JSONPullReader.Member
      switch last {
      case 0: member = r.nextMember(&first, likely: "title")
      case title: member = r.nextMember(&first, likely: "body")
      case body: member = r.nextMember(&first, likely: "categoryIdentifier")
      case category: member = r.nextMember(&first, likely: "threadIdentifier")
      case thread: member = r.nextMember(&first, likely: "userInfo")
      default: member = r.nextMember(&first)
      }
      switch member {
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
      last = bit
      if r.null() { continue }
      // The four texts are borrowed from the message unless they have escapes.
      switch bit {
      case title:
        guard text(&r, .title, &c, \.title) else { return false }
      case body:
        guard text(&r, .body, &c, \.body) else { return false }
      case category:
        guard text(&r, .categoryIdentifier, &c, \.categoryIdentifier, identifier: true) else { return false }
      case thread:
        guard text(&r, .threadIdentifier, &c, \.threadIdentifier, identifier: true) else { return false }
      case userInfo:
        guard readUserInfo(&r, into: &c, maxDepth: maxDepth) else { return false }
      default:
        guard readTableField(&r, ContentShape.fields[bit.trailingZeroBitCount], into: &c, maxDepth: maxDepth) else {
          return false
        }
      }
    }
  }

  /// A string value into text `field`: its bytes borrowed when it has no escapes,
  /// decoded into the content's `path` otherwise.  An `identifier` with U+0000 (only an
  /// escape can put one there) is left to the general path.
  @inline(__always)
  private static func text(
    _ r: inout JSONPullReader, _ field: BorrowedRequest.Text, _ c: inout BorrowedRequest,
    _ path: WritableKeyPath<Content, String>, identifier: Bool = false
  ) -> Bool {
    if let bytes = r.unescapedString() {
      c.borrow(field, bytes)
      return true
    }
    guard let s = identifier ? r.stringWithoutNUL() : r.string() else { return false }
    c.content[keyPath: path] = s
    return true
  }

  /// A field other than the five read directly, through the table's accessors.
  private static func readTableField(
    _ r: inout JSONPullReader, _ field: ContentShape.Field, into request: inout BorrowedRequest, maxDepth: Int
  ) -> Bool {
    switch field.kind {
    case .text(_, let set), .optionalText(_, let set):
      guard let s = field.identifier ? r.stringWithoutNUL() : r.string() else { return false }
      set(&request.content, s)
    case .optionalInteger(_, let set), .integer(_, let set, _):
      guard let v = int(&r) else { return false }
      set(&request.content, v)
    case .score(_, let set):
      guard let d = r.double(), d.isFinite else { return false }
      set(&request.content, d)
    case .userInfo:
      return readUserInfo(&r, into: &request, maxDepth: maxDepth)
    case .sound:
      guard let s = r.string() else { return false }
      request.content.sound = s == "default" ? .default : .named(s)
    case .interruptionLevel:
      guard let s = r.string(), let level = InterruptionLevel(rawValue: s) else { return false }
      request.content.interruptionLevel = level
    case .attachments:
      return false
    }
    return true
  }

  /// An object, kept as its compact text: borrowed from the message when it is written
  /// compactly already, else re-encoded.
  @inline(__always)
  private static func readUserInfo(_ r: inout JSONPullReader, into c: inout BorrowedRequest, maxDepth: Int) -> Bool {
    // The parser counts the envelope, params and content as three open containers.
    guard r.peek() == UInt8(ascii: "{") else { return false }
    if let bytes = r.compactValueInPlace(maxDepth: maxDepth - 3) {
      c.borrow(.userInfo, bytes)
      return true
    }
    guard let text = r.compactValue(maxDepth: maxDepth - 3) else { return false }
    c.content.userInfo = JSONText(bytes: text)
    return true
  }

  /// An integer as `Params.int` accepts it (`3`, `3.0`, `3e0`).
  private static func int(_ r: inout JSONPullReader) -> Int? {
    guard let text = r.numberText() else { return nil }
    return JSONValue.number(text).intValue
  }
}
