import UNModel

/// The content shape, described once: each wire field's name, kind, default and where
/// it lives on `Content`, in wire order.  Decoding (`ModelDecoding.content` from the
/// tree, `ScheduleLocalFastPath.content` from the pull reader), encoding (`WireBytes`,
/// `ModelEncoding`) and the state rows (`StateCodec.changedContent`) all read this
/// table, so a new content field is one line here (and the model, the client and the
/// APNs mapping when it has an `aps` key).
enum ContentShape {
  /// One field: its name and what kind of value it holds.
  struct Field: Sendable {
    let name: StaticString
    let kind: Kind
    /// `name` as a `String`, for the tree and error paths.
    var key: String { name.description }
  }

  /// What a field holds, with its accessors; the kind decides the default, when it is
  /// written and how it is read.
  enum Kind: Sendable {
    /// Text that defaults to "" and is always on the wire (left out of rows when "").
    case text(@Sendable (Content) -> String, @Sendable (inout Content, String) -> Void)
    /// Text that defaults to absent: on the wire only when set.
    case optionalText(@Sendable (Content) -> String?, @Sendable (inout Content, String) -> Void)
    /// An integer that defaults to absent (the badge).
    case optionalInteger(@Sendable (Content) -> Int?, @Sendable (inout Content, Int) -> Void)
    /// An integer always on the wire; rows leave out `default`.
    case integer(@Sendable (Content) -> Int, @Sendable (inout Content, Int) -> Void, default: Int)
    /// A finite number always on the wire; rows leave out 0.
    case score(@Sendable (Content) -> Double, @Sendable (inout Content, Double) -> Void)
    /// The shapes of their own, each read and written by its own function.
    case sound, userInfo, interruptionLevel, attachments
  }

  static let fields: [Field] = [
    Field(name: "title", kind: .text({ $0.title }, { $0.title = $1 })),
    Field(name: "subtitle", kind: .text({ $0.subtitle }, { $0.subtitle = $1 })),
    Field(name: "body", kind: .text({ $0.body }, { $0.body = $1 })),
    Field(name: "badge", kind: .optionalInteger({ $0.badge }, { $0.badge = $1 })),
    Field(name: "sound", kind: .sound),
    Field(name: "userInfo", kind: .userInfo),
    Field(name: "categoryIdentifier", kind: .text({ $0.categoryIdentifier }, { $0.categoryIdentifier = $1 })),
    Field(name: "threadIdentifier", kind: .text({ $0.threadIdentifier }, { $0.threadIdentifier = $1 })),
    Field(name: "summaryArgument", kind: .text({ $0.summaryArgument }, { $0.summaryArgument = $1 })),
    Field(
      name: "summaryArgumentCount",
      kind: .integer({ $0.summaryArgumentCount }, { $0.summaryArgumentCount = $1 }, default: 1)),
    Field(
      name: "targetContentIdentifier",
      kind: .optionalText({ $0.targetContentIdentifier }, { $0.targetContentIdentifier = $1 })),
    Field(name: "interruptionLevel", kind: .interruptionLevel),
    Field(name: "relevanceScore", kind: .score({ $0.relevanceScore }, { $0.relevanceScore = $1 })),
    Field(name: "launchImageName", kind: .text({ $0.launchImageName }, { $0.launchImageName = $1 })),
    Field(name: "filterCriteria", kind: .optionalText({ $0.filterCriteria }, { $0.filterCriteria = $1 })),
    Field(name: "attachments", kind: .attachments),
  ]

  /// The field names, for the tree decoder's unknown-field check.
  static let names: [String] = fields.map(\.key)

  /// `"name":` of each field, as bytes, for the byte writers.
  static let quotedKeys: [[UInt8]] = fields.map { Array("\"\($0.key)\":".utf8) }

  /// The index of the field called `name`, for the pull reader.
  @inline(__always)
  static func index(where matches: (StaticString) -> Bool) -> Int? {
    for i in fields.indices where matches(fields[i].name) { return i }
    return nil
  }
}
