/// A connection as the center knows it: an opaque number chosen by the server.
public typealias SessionID = Int

/// What a connection is to the center, declared in `hello`.
public enum Role: String, Sendable, CaseIterable {
  case app, user, observer, serviceExtension, contentExtension
}

/// What a foreground app's `willPresent` would complete with (`UNNotificationPresentationOptions`).
public enum PresentationOption: String, Sendable, CaseIterable {
  case banner, list, sound, badge
}

/// Who decides how a foreground notification is shown: the options declared in `hello`
/// (`declared`, the default), or the app's `willPresent` answer (`delegate`), sent back
/// with `completePresentation` as iOS waits for the delegate's completion handler.
public enum PresentationDecision: String, Sendable, CaseIterable {
  case declared, delegate
}

/// Where the notification is shown; decides which actions appear (rule 6).
public enum Surface: String, Sendable, CaseIterable {
  case phone, carPlay, watch

  /// Up to 10 actions on the phone; on CarPlay only for `allowInCarPlay` categories,
  /// without text-input actions, at most 2; none on the watch or for an unknown category.
  public func actions(for category: Category?) -> [Action] {
    guard let category else { return [] }
    switch self {
    case .phone:
      return Array(category.actions.prefix(10))
    case .carPlay:
      guard category.has(.allowInCarPlay) else { return [] }
      return Array(category.actions.lazy.filter { $0.textInput == nil }.prefix(2))
    case .watch:
      return []
    }
  }
}

/// What a content extension declared in `hello` (its Info.plist, on iOS).
public struct ContentExtensionInfo: Sendable, Hashable {
  /// `UNNotificationExtensionCategory`: the categories whose notifications it shows.
  public var categories: [String]
  /// `UNNotificationExtensionUserInteractionEnabled`.
  public var userInteractionEnabled: Bool
  /// `UNNotificationExtensionDefaultContentHidden`.
  public var defaultContentHidden: Bool

  public init(categories: [String], userInteractionEnabled: Bool = false, defaultContentHidden: Bool = false) {
    self.categories = categories
    self.userInteractionEnabled = userInteractionEnabled
    self.defaultContentHidden = defaultContentHidden
  }
}

/// One connection's `hello`.
public struct SessionInfo: Sendable, Hashable {
  public var role: Role
  public var appId: String?
  public var presentation: [PresentationOption]
  public var surface: Surface
  /// `delegate`: this connection answers each `present` with `completePresentation`.
  public var presentationDecision = PresentationDecision.declared
  /// Set for the `contentExtension` role.
  public var contentExtension: ContentExtensionInfo?

  public init(
    role: Role, appId: String?, presentation: [PresentationOption] = PresentationOption.allCases,
    surface: Surface = .phone
  ) {
    self.role = role
    self.appId = appId
    self.presentation = presentation
    self.surface = surface
  }
}
