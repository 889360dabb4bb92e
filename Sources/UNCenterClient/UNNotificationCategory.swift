import Foundation
import JSONRPC
import UNModel
import UNProtocol

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

  /// The protocol's category value ("" placeholder and format are not set).
  var value: Category {
    Category(
      identifier: identifier, actions: actions.map(\.value), intentIdentifiers: intentIdentifiers,
      hiddenPreviewsBodyPlaceholder: hiddenPreviewsBodyPlaceholder.isEmpty ? nil : hiddenPreviewsBodyPlaceholder,
      categorySummaryFormat: categorySummaryFormat.isEmpty ? nil : categorySummaryFormat,
      options: options.wireNameList.compactMap { CategoryOption(rawValue: $0) })
  }

  /// The daemon's category shape, written by `CategoryShape`.
  public var wireValue: JSONValue { Wire.tree { CategoryShape.encode(value, &$0) } }

  /// A category as the daemon wrote it, read by `CategoryShape`.
  public convenience init(wireValue v: JSONValue) throws(UNCenterError) {
    let c = try Wire.read("category", v) { v throws(RPCError) in
      try CategoryShape.decode([v], path: "category", stored: true)[0]
    }
    self.init(
      identifier: c.identifier, actions: c.actions.map { UNNotificationAction.from(value: $0) },
      intentIdentifiers: c.intentIdentifiers, hiddenPreviewsBodyPlaceholder: c.hiddenPreviewsBodyPlaceholder,
      categorySummaryFormat: c.categorySummaryFormat,
      options: UNNotificationCategoryOptions(wireNameList: c.options.map(\.rawValue)))
  }
}
