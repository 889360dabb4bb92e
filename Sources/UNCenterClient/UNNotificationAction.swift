import Foundation
import JSONRPC

/// `UNNotificationActionIcon`: an action's image (a system or template image name).
/// The daemon does not show icons; the icon is kept for source compatibility.
///
/// `@unchecked Sendable`: immutable.
open class UNNotificationActionIcon: NSObject, @unchecked Sendable {
  public let name: String
  public let isSystemImage: Bool
  init(name: String, system: Bool) {
    self.name = name
    self.isSystemImage = system
  }
  public convenience init(systemImageName: String) { self.init(name: systemImageName, system: true) }
  public convenience init(templateImageName: String) { self.init(name: templateImageName, system: false) }
}

/// `UNNotificationAction`: a button shown with a notification of its category.
///
/// `@unchecked Sendable`: immutable.
open class UNNotificationAction: NSObject, @unchecked Sendable {
  public let identifier: String
  public let title: String
  public let options: UNNotificationActionOptions
  public let icon: UNNotificationActionIcon?

  public init(
    identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon? = nil
  ) {
    self.identifier = identifier
    self.title = title
    self.options = options
    self.icon = icon
  }

  /// `{identifier, title, options, textInput?: {buttonTitle, placeholder}}`.
  public var wireValue: JSONValue {
    var m: [JSONMember] = [
      JSONMember("identifier", .string(identifier)), JSONMember("title", .string(title)),
      JSONMember("options", .array(options.wireNameList.map { .string($0) })),
    ]
    if let t = self as? UNTextInputNotificationAction {
      m.append(
        JSONMember(
          "textInput",
          .object(["buttonTitle": .string(t.textInputButtonTitle), "placeholder": .string(t.textInputPlaceholder)])))
    }
    return .object(m)
  }

  /// A `UNTextInputNotificationAction` when the wire form has `textInput`.
  public static func from(wireValue v: JSONValue) throws(UNCenterError) -> UNNotificationAction {
    let identifier = try Wire.string(v, "identifier")
    let title = try Wire.string(v, "title")
    let options = UNNotificationActionOptions(wireNameList: Wire.strings(v["options"]))
    if let t = v["textInput"], case .object = t {
      return UNTextInputNotificationAction(
        identifier: identifier, title: title, options: options,
        textInputButtonTitle: t["buttonTitle"]?.stringValue ?? "",
        textInputPlaceholder: t["placeholder"]?.stringValue ?? "")
    }
    return UNNotificationAction(identifier: identifier, title: title, options: options)
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationAction else { return false }
    return wireValue == other.wireValue
  }

  open override var hash: Int { identifier.hashValue }
}

/// `UNTextInputNotificationAction`: an action that asks the user for text; its
/// response is a `UNTextInputNotificationResponse`.
open class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
  public let textInputButtonTitle: String
  public let textInputPlaceholder: String

  public init(
    identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon? = nil,
    textInputButtonTitle: String, textInputPlaceholder: String
  ) {
    self.textInputButtonTitle = textInputButtonTitle
    self.textInputPlaceholder = textInputPlaceholder
    super.init(identifier: identifier, title: title, options: options, icon: icon)
  }
}
