import Foundation
import JSONRPC

/// `UNNotificationCategory`: a set of actions, registered by identifier.
///
/// `@unchecked Sendable`: immutable.
open class UNNotificationCategory: NSObject, @unchecked Sendable {
  public let identifier: String
  public let actions: [UNNotificationAction]
  public let intentIdentifiers: [String]
  public let options: UNNotificationCategoryOptions
  /// "" when not set.
  public let hiddenPreviewsBodyPlaceholder: String
  /// `%u` is the count of other notifications, `%@` the joined summary arguments; "" when not set.
  public let categorySummaryFormat: String

  public init(
    identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
    hiddenPreviewsBodyPlaceholder: String?, categorySummaryFormat: String?, options: UNNotificationCategoryOptions = []
  ) {
    self.identifier = identifier
    self.actions = actions
    self.intentIdentifiers = intentIdentifiers
    self.options = options
    self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder ?? ""
    self.categorySummaryFormat = categorySummaryFormat ?? ""
  }

  public convenience init(
    identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
    options: UNNotificationCategoryOptions = []
  ) {
    self.init(
      identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
      hiddenPreviewsBodyPlaceholder: nil, categorySummaryFormat: nil, options: options)
  }

  public convenience init(
    identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
    hiddenPreviewsBodyPlaceholder: String, options: UNNotificationCategoryOptions = []
  ) {
    self.init(
      identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
      hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder, categorySummaryFormat: nil, options: options)
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationCategory else { return false }
    return wireValue == other.wireValue
  }

  open override var hash: Int { identifier.hashValue }

  /// `{identifier, actions, intentIdentifiers, hiddenPreviewsBodyPlaceholder?, categorySummaryFormat?, options}`.
  public var wireValue: JSONValue {
    var m: [JSONMember] = [
      JSONMember("identifier", .string(identifier)), JSONMember("actions", .array(actions.map(\.wireValue))),
      JSONMember("intentIdentifiers", .array(intentIdentifiers.map { .string($0) })),
    ]
    if !hiddenPreviewsBodyPlaceholder.isEmpty {
      m.append(JSONMember("hiddenPreviewsBodyPlaceholder", .string(hiddenPreviewsBodyPlaceholder)))
    }
    if !categorySummaryFormat.isEmpty { m.append(JSONMember("categorySummaryFormat", .string(categorySummaryFormat))) }
    m.append(JSONMember("options", .array(options.wireNameList.map { .string($0) })))
    return .object(m)
  }

  public convenience init(wireValue v: JSONValue) throws(UNCenterError) {
    var actions: [UNNotificationAction] = []
    for a in v["actions"]?.arrayValue ?? [] { actions.append(try UNNotificationAction.from(wireValue: a)) }
    self.init(
      identifier: try Wire.string(v, "identifier"), actions: actions,
      intentIdentifiers: Wire.strings(v["intentIdentifiers"]),
      hiddenPreviewsBodyPlaceholder: v["hiddenPreviewsBodyPlaceholder"]?.stringValue,
      categorySummaryFormat: v["categorySummaryFormat"]?.stringValue,
      options: UNNotificationCategoryOptions(wireNameList: Wire.strings(v["options"])))
  }
}
