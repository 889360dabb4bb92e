import JSONRPC
import UNModel

extension ScheduleLocalFastPath {
  /// The content fields, as `ModelDecoding.content` reads them: null counts as absent,
  /// a field may appear once, and `userInfo` is kept as its compact text.
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
      guard let field = Field(name) else { return nil }
      let bit = UInt32(1) << field.rawValue
      guard seen & bit == 0 else { return nil }
      seen |= bit
      if r.null() { continue }
      switch field {
      case .title:
        guard let s = r.string() else { return nil }
        c.title = s
      case .body:
        guard let s = r.string() else { return nil }
        c.body = s
      case .categoryIdentifier:
        guard let s = r.string() else { return nil }
        c.categoryIdentifier = s
      case .threadIdentifier:
        guard let s = r.string() else { return nil }
        c.threadIdentifier = s
      case .userInfo:
        // The parser counts the envelope, params and content as three open containers.
        guard r.peek() == UInt8(ascii: "{"), let text = r.compactValue(maxDepth: maxDepth - 3) else { return nil }
        c.userInfo = JSONText(bytes: text)
      case .subtitle:
        guard let s = r.string() else { return nil }
        c.subtitle = s
      case .badge:
        guard let v = int(&r) else { return nil }
        c.badge = v
      case .sound:
        // The object form (critical, volume) takes the general path.
        guard let s = r.string() else { return nil }
        c.sound = s == "default" ? .default : .named(s)
      case .summaryArgument:
        guard let s = r.string() else { return nil }
        c.summaryArgument = s
      case .summaryArgumentCount:
        guard let v = int(&r) else { return nil }
        c.summaryArgumentCount = v
      case .targetContentIdentifier:
        guard let s = r.string() else { return nil }
        c.targetContentIdentifier = s
      case .interruptionLevel:
        guard let s = r.string(), let level = InterruptionLevel(rawValue: s) else { return nil }
        c.interruptionLevel = level
      case .relevanceScore:
        guard let d = r.double(), d.isFinite else { return nil }
        c.relevanceScore = d
      case .launchImageName:
        guard let s = r.string() else { return nil }
        c.launchImageName = s
      case .filterCriteria:
        guard let s = r.string() else { return nil }
        c.filterCriteria = s
      }
    }
  }

  /// An integer as `Params.int` accepts it (`3`, `3.0`, `3e0`).
  private static func int(_ r: inout JSONPullReader) -> Int? {
    guard let text = r.numberText() else { return nil }
    return JSONValue.number(text).intValue
  }

  /// The content fields (`ModelDecoding.contentFields`) but `attachments`, which takes the
  /// general path (its files are checked and copied there).
  enum Field: UInt32 {
    case title, body, categoryIdentifier, threadIdentifier, userInfo, subtitle, badge, sound, summaryArgument
    case summaryArgumentCount, targetContentIdentifier, interruptionLevel, relevanceScore, launchImageName
    case filterCriteria

    init?(_ name: JSONPullReader.Name) {
      if name.is("title") {
        self = .title
      } else if name.is("body") {
        self = .body
      } else if name.is("categoryIdentifier") {
        self = .categoryIdentifier
      } else if name.is("threadIdentifier") {
        self = .threadIdentifier
      } else if name.is("userInfo") {
        self = .userInfo
      } else if name.is("subtitle") {
        self = .subtitle
      } else if name.is("badge") {
        self = .badge
      } else if name.is("sound") {
        self = .sound
      } else if name.is("summaryArgument") {
        self = .summaryArgument
      } else if name.is("summaryArgumentCount") {
        self = .summaryArgumentCount
      } else if name.is("targetContentIdentifier") {
        self = .targetContentIdentifier
      } else if name.is("interruptionLevel") {
        self = .interruptionLevel
      } else if name.is("relevanceScore") {
        self = .relevanceScore
      } else if name.is("launchImageName") {
        self = .launchImageName
      } else if name.is("filterCriteria") {
        self = .filterCriteria
      } else {
        return nil
      }
    }
  }
}
