import JSONRPC

/// `UNNotificationAction`: a button shown with a notification of its category.
///
/// Apple models the text-input action as the subclass `UNTextInputNotificationAction`;
/// here it is the same value type with `textInput` set, and
/// `UNTextInputNotificationAction(identifier:title:options:textInputButtonTitle:textInputPlaceholder:)`
/// builds one, so `actions: [replyAction, deleteAction]` type-checks as on iOS.
public struct UNNotificationAction: Sendable, Hashable {
  /// The text field shown by a text-input action.
  public struct TextInput: Sendable, Hashable {
    public var buttonTitle: String
    public var placeholder: String
    public init(buttonTitle: String, placeholder: String) {
      self.buttonTitle = buttonTitle
      self.placeholder = placeholder
    }
  }

  public var identifier: String
  public var title: String
  public var options: UNNotificationActionOptions
  /// Present for a text-input action.
  public var textInput: TextInput?

  public init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
    self.identifier = identifier
    self.title = title
    self.options = options
  }

  /// A text-input action (Apple's `UNTextInputNotificationAction` initializer).
  public init(
    identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String,
    textInputPlaceholder: String
  ) {
    self.init(identifier: identifier, title: title, options: options)
    textInput = TextInput(buttonTitle: textInputButtonTitle, placeholder: textInputPlaceholder)
  }

  /// True for a text-input action.
  public var isTextInput: Bool { textInput != nil }
  /// The send button's title ("" unless a text-input action).
  public var textInputButtonTitle: String { textInput?.buttonTitle ?? "" }
  /// The text field's placeholder ("" unless a text-input action).
  public var textInputPlaceholder: String { textInput?.placeholder ?? "" }
}

/// Apple's text-input action subclass: here the same type, built by the initializer
/// that takes `textInputButtonTitle` and `textInputPlaceholder`.
public typealias UNTextInputNotificationAction = UNNotificationAction

/// `UNNotificationCategory`: a set of actions, registered by identifier.
public struct UNNotificationCategory: Sendable, Hashable {
  public var identifier: String
  public var actions: [UNNotificationAction]
  public var intentIdentifiers: [String]
  public var options: UNNotificationCategoryOptions
  public var hiddenPreviewsBodyPlaceholder: String?
  /// `%u` is the count of other notifications, `%@` the joined summary arguments.
  public var categorySummaryFormat: String?

  public init(
    identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
    options: UNNotificationCategoryOptions = []
  ) {
    self.identifier = identifier
    self.actions = actions
    self.intentIdentifiers = intentIdentifiers
    self.options = options
  }

  public init(
    identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
    hiddenPreviewsBodyPlaceholder: String?, categorySummaryFormat: String? = nil,
    options: UNNotificationCategoryOptions = []
  ) {
    self.init(identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers, options: options)
    self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
    self.categorySummaryFormat = categorySummaryFormat
  }
}

// MARK: wire shapes

extension UNNotificationAction {
  /// `{identifier, title, options, textInput?: {buttonTitle, placeholder}}`.
  public var wireValue: JSONValue {
    var m: [JSONMember] = [
      JSONMember("identifier", .string(identifier)), JSONMember("title", .string(title)),
      JSONMember("options", .array(options.wireNameList.map { .string($0) })),
    ]
    if let t = textInput {
      m.append(
        JSONMember("textInput", .object(["buttonTitle": .string(t.buttonTitle), "placeholder": .string(t.placeholder)])))
    }
    return .object(m)
  }

  public init(wireValue v: JSONValue) throws(UNCenterError) {
    self.init(
      identifier: try Wire.string(v, "identifier"), title: try Wire.string(v, "title"),
      options: UNNotificationActionOptions(wireNameList: Wire.strings(v["options"])))
    if let t = v["textInput"], case .object = t {
      textInput = TextInput(
        buttonTitle: t["buttonTitle"]?.stringValue ?? "", placeholder: t["placeholder"]?.stringValue ?? "")
    }
  }
}

extension UNNotificationCategory {
  /// `{identifier, actions, intentIdentifiers, hiddenPreviewsBodyPlaceholder?, categorySummaryFormat?, options}`.
  public var wireValue: JSONValue {
    var m: [JSONMember] = [
      JSONMember("identifier", .string(identifier)), JSONMember("actions", .array(actions.map(\.wireValue))),
      JSONMember("intentIdentifiers", .array(intentIdentifiers.map { .string($0) })),
    ]
    if let p = hiddenPreviewsBodyPlaceholder { m.append(JSONMember("hiddenPreviewsBodyPlaceholder", .string(p))) }
    if let f = categorySummaryFormat { m.append(JSONMember("categorySummaryFormat", .string(f))) }
    m.append(JSONMember("options", .array(options.wireNameList.map { .string($0) })))
    return .object(m)
  }

  public init(wireValue v: JSONValue) throws(UNCenterError) {
    var actions: [UNNotificationAction] = []
    for a in v["actions"]?.arrayValue ?? [] { actions.append(try UNNotificationAction(wireValue: a)) }
    self.init(
      identifier: try Wire.string(v, "identifier"), actions: actions,
      intentIdentifiers: Wire.strings(v["intentIdentifiers"]),
      options: UNNotificationCategoryOptions(wireNameList: Wire.strings(v["options"])))
    hiddenPreviewsBodyPlaceholder = v["hiddenPreviewsBodyPlaceholder"]?.stringValue
    categorySummaryFormat = v["categorySummaryFormat"]?.stringValue
  }
}
