/// An action's options, in Apple's names.
public enum ActionOption: String, Sendable, CaseIterable {
  case authenticationRequired, destructive, foreground
}

/// A category's options, in Apple's names.
public enum CategoryOption: String, Sendable, CaseIterable {
  case customDismissAction, allowInCarPlay, hiddenPreviewsShowTitle, hiddenPreviewsShowSubtitle,
    allowAnnouncement
}

/// The text field of a `UNTextInputNotificationAction`.
public struct TextInput: Sendable, Hashable {
  public var buttonTitle: String
  public var placeholder: String
  public init(buttonTitle: String, placeholder: String) {
    self.buttonTitle = buttonTitle
    self.placeholder = placeholder
  }
}

/// A button (`UNNotificationAction`) or, with `textInput`, a text-input action.
/// Options keep the order they were given in, so what a client registered is what it reads back.
public struct Action: Sendable, Hashable {
  public var identifier: String
  public var title: String
  public var options: [ActionOption]
  public var textInput: TextInput?

  public init(identifier: String, title: String, options: [ActionOption] = [], textInput: TextInput? = nil) {
    self.identifier = identifier
    self.title = title
    self.options = options
    self.textInput = textInput
  }

  public func has(_ option: ActionOption) -> Bool { options.contains(option) }
}

/// A `UNNotificationCategory`.
public struct Category: Sendable, Hashable {
  public var identifier: String
  public var actions: [Action]
  public var intentIdentifiers: [String]
  public var hiddenPreviewsBodyPlaceholder: String?
  public var categorySummaryFormat: String?
  public var options: [CategoryOption]

  public init(
    identifier: String, actions: [Action] = [], intentIdentifiers: [String] = [],
    hiddenPreviewsBodyPlaceholder: String? = nil, categorySummaryFormat: String? = nil,
    options: [CategoryOption] = []
  ) {
    self.identifier = identifier
    self.actions = actions
    self.intentIdentifiers = intentIdentifiers
    self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
    self.categorySummaryFormat = categorySummaryFormat
    self.options = options
  }

  public func has(_ option: CategoryOption) -> Bool { options.contains(option) }
}

extension Category {
  /// Checks rule 1 for one set: identifiers non-empty and unique (categories in the set,
  /// actions in each category).  Compared literally, as iOS compares them: case and
  /// Unicode spelling count (`ExactKey`).
  public static func validate(_ set: [Category], maxActions: Int) throws(UNError) {
    var seen = Set<ExactKey>()
    for (i, category) in set.enumerated() {
      let path = "categories[\(i)]"
      guard !category.identifier.isEmpty else {
        throw .invalidParams(field: path + ".identifier", problem: "must be a non-empty string")
      }
      guard seen.insert(category.identifier).inserted else {
        throw .invalidParams(field: path + ".identifier", problem: "duplicate identifier '\(category.identifier)'")
      }
      guard category.actions.count <= maxActions else {
        throw .limitExceeded(limit: "maxActionsPerCategory", value: maxActions)
      }
      var actionIDs = Set<ExactKey>()
      for (j, action) in category.actions.enumerated() {
        let apath = "\(path).actions[\(j)].identifier"
        guard !action.identifier.isEmpty else {
          throw .invalidParams(field: apath, problem: "must be a non-empty string")
        }
        guard actionIDs.insert(action.identifier).inserted else {
          throw .invalidParams(field: apath, problem: "duplicate identifier '\(action.identifier)'")
        }
      }
    }
  }
}
