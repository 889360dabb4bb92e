/// `UNAuthorizationStatus`.
public enum AuthorizationStatus: String, Sendable, CaseIterable {
  case notDetermined, denied, authorized, provisional, ephemeral
}

/// Everything one app owns (SPEC §5): categories, pending and delivered notifications,
/// badge, authorization, foreground state and the responses waiting for a connection.
///
/// A class: the center looks an app up several times per call, and a struct this size
/// would be copied (every reference retained and released) at each lookup.  Like the
/// center, it belongs to the loop thread and is not `Sendable`.
public final class AppState {
  public let appId: String
  public var categories: [Category] = [] {
    didSet { categoryWarning = nil }
  }
  /// The last category a request named and the warnings it gets: requests of an app
  /// mostly name the same category, and the warning text is built once for them.
  var categoryWarning: (identifier: String, warnings: [String])?
  /// `Localizable.strings` as the app registered it: key → format, for the `loc-key`s of
  /// its remote notifications.
  public var localizedStrings: [String: String] = [:]
  public var pending = PendingSchedule()
  public var delivered = DeliveredList()
  public var badge = 0
  public var authorization: AuthorizationStatus
  /// The app's own wish to be in the foreground; it is in the foreground only while an
  /// `app` connection is also bound to it.
  public var wantsForeground = true
  /// The options the user granted (`requestAuthorization`); all of alert, sound and
  /// badge for apps authorized implicitly.
  public var grantedOptions: [AuthorizationOption] = [.alert, .sound, .badge]
  /// The simulated user's answer to the next authorization prompt (grant when nil).
  public var nextAnswer: Bool?
  /// The uid that first bound the app (SPEC §9); others are refused access.
  public var owner: UInt32?
  /// The notification the user is looking at expanded (long press), if any.
  public var expanded: String?
  /// Responses made while no `app` connection existed, oldest first.
  public var queuedResponses: [(NotificationResponse, Instant?)] = []

  public init(appId: String, authorization: AuthorizationStatus) {
    self.appId = appId
    self.authorization = authorization
  }

  public func category(_ identifier: String) -> Category? {
    categories.first { $0.identifier == identifier }
  }
}
