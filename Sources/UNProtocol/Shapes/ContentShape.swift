import JSONRPC
import UNModel

/// The content shape, described once: each wire field's name, kind, default, where it
/// lives on `Content` and its OpenRPC schema, in wire order.  Decoding
/// (`ContentShape.decode` from the tree, `ScheduleLocalFastPath.content` from the pull
/// reader), encoding (`ContentShape.encode`), the state rows
/// (`StateCodec.changedContent`) and the served OpenRPC document (`DescribedSchemas`) all
/// read this table, so a new content field is one line here (and the model, the client
/// and the APNs mapping when it has an `aps` key).
public enum ContentShape {
  /// One field: its name, what kind of value it holds and its OpenRPC property schema.
  public struct Field: Sendable {
    public let name: StaticString
    public let kind: Kind
    /// Built only when the OpenRPC document is: a closure keeps `fields` a constant the
    /// compiler lays out statically, so the per-request loops read it without a lazy
    /// initialization check.
    public let schema: @Sendable () -> PropertySchema
    /// A text that identifies something (a category, a thread): U+0000 is refused in it
    /// (`Params.identifier`), where other texts keep it.
    public var identifier = false
    /// `name` as a `String`, for the tree and error paths.
    public var key: String { name.description }
  }

  /// What a field holds, with its accessors; the kind decides the default, when it is
  /// written and how it is read.
  public enum Kind: Sendable {
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

    /// Whether output always carries the field (the others only when set).
    public var alwaysWritten: Bool {
      switch self {
      case .text, .integer, .score, .userInfo, .interruptionLevel: true
      case .optionalText, .optionalInteger, .sound, .attachments: false
      }
    }
  }

  public static let fields: [Field] = [
    Field(name: "title", kind: .text({ $0.title }, { $0.title = $1 }), schema: { .of("string", #"Default ""."#) }),
    Field(
      name: "subtitle", kind: .text({ $0.subtitle }, { $0.subtitle = $1 }), schema: { .of("string", #"Default ""."#) }),
    Field(name: "body", kind: .text({ $0.body }, { $0.body = $1 }), schema: { .of("string", #"Default ""."#) }),
    Field(
      name: "badge", kind: .optionalInteger({ $0.badge }, { $0.badge = $1 }),
      schema: {
        .of(
          "integer", ["minimum": .int(0)],
          "The app's badge after delivery (omitted = unchanged). Negative values are refused: -32602 badgeInputInvalid."
        )
      }),
    Field(
      name: "sound", kind: .sound,
      schema: { .ref("Sound", "Absent or null = no sound. Omitted in output when not set.") }),
    Field(
      name: "userInfo", kind: .userInfo, schema: { .of("object", "Any JSON object, returned as given (default {}).") }),
    Field(
      name: "categoryIdentifier", kind: .text({ $0.categoryIdentifier }, { $0.categoryIdentifier = $1 }),
      schema: {
        .of(
          "string",
          #"The category whose actions are shown (default ""). An unregistered category is accepted with a warning."#)
      }, identifier: true),
    Field(
      name: "threadIdentifier", kind: .text({ $0.threadIdentifier }, { $0.threadIdentifier = $1 }),
      schema: { .of("string", #"Groups delivered notifications (default "" = the app's own group)."#) },
      identifier: true),
    Field(
      name: "summaryArgument", kind: .text({ $0.summaryArgument }, { $0.summaryArgument = $1 }),
      schema: { .of("string", #"Named in the group summary ("... from Alice and me"); default ""."#) }),
    Field(
      name: "summaryArgumentCount",
      kind: .integer({ $0.summaryArgumentCount }, { $0.summaryArgumentCount = $1 }, default: 1),
      schema: {
        .of(
          "integer", ["minimum": .int(1)],
          "How many items this notification counts for in its group summary (default 1).")
      }),
    Field(
      name: "targetContentIdentifier",
      kind: .optionalText({ $0.targetContentIdentifier }, { $0.targetContentIdentifier = $1 }),
      schema: { .of("string", "Omitted in output when not set.") }, identifier: true),
    Field(
      name: "interruptionLevel", kind: .interruptionLevel, schema: { .ref("InterruptionLevel", "Default active.") }),
    Field(
      name: "relevanceScore", kind: .score({ $0.relevanceScore }, { $0.relevanceScore = $1 }),
      schema: { .of("number", ["minimum": .int(0), "maximum": .int(1)], "Default 0.") }),
    Field(
      name: "launchImageName", kind: .text({ $0.launchImageName }, { $0.launchImageName = $1 }),
      schema: { .of("string", #"Default ""."#) }),
    Field(
      name: "filterCriteria", kind: .optionalText({ $0.filterCriteria }, { $0.filterCriteria = $1 }),
      schema: { .of("string", "Omitted in output when not set.") }),
    Field(
      name: "attachments", kind: .attachments,
      schema: { .array(.ref("Attachment"), "Default []; omitted in output when empty.") }),
  ]

  /// The OpenRPC `properties` of `Content` and the fields output always has.
  public static let schema = DescribedSchema(
    properties: fields.map { JSONMember($0.key, $0.schema().value) },
    fieldList: DescribedSchema.prose(fields.filter(\.kind.alwaysWritten).map(\.key)))

  /// The field names, for the tree decoder's unknown-field check.
  public static let names: [String] = fields.map(\.key)

  /// `"name":` of each field, as bytes, for the byte writers.
  public static let quotedKeys: [[UInt8]] = fields.map { Array("\"\($0.key)\":".utf8) }

  /// The index of the field called `name`, for the pull reader.
  @inline(__always)
  public static func index(where matches: (StaticString) -> Bool) -> Int? {
    for i in fields.indices where matches(fields[i].name) { return i }
    return nil
  }
}
