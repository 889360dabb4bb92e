import Foundation
import JSONRPC
import UNModel
import UNProtocol

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

  /// The protocol's action value (a text-input action with its `textInput`).
  var value: Action {
    let textInput = (self as? UNTextInputNotificationAction).map {
      TextInput(buttonTitle: $0.textInputButtonTitle, placeholder: $0.textInputPlaceholder)
    }
    return Action(
      identifier: identifier, title: title, options: options.wireNameList.compactMap { ActionOption(rawValue: $0) },
      textInput: textInput)
  }

  /// An action the daemon wrote: a `UNTextInputNotificationAction` when it has a text input.
  static func from(value a: Action) -> UNNotificationAction {
    let options = UNNotificationActionOptions(wireNameList: a.options.map(\.rawValue))
    guard let t = a.textInput else {
      return UNNotificationAction(identifier: a.identifier, title: a.title, options: options)
    }
    return UNTextInputNotificationAction(
      identifier: a.identifier, title: a.title, options: options, textInputButtonTitle: t.buttonTitle,
      textInputPlaceholder: t.placeholder)
  }

  /// The daemon's action shape, written by `ActionShape`.
  public var wireValue: JSONValue { Wire.tree { ActionShape.encode([value], &$0) }.arrayValue?.first ?? .null }

  /// An action as the daemon wrote it, read by `ActionShape`.
  public static func from(wireValue v: JSONValue) throws(UNCenterError) -> UNNotificationAction {
    from(
      value: try Wire.read("action", v) { v throws(RPCError) in try ActionShape.decode(v, path: "action", stored: true)
      })
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
