import UNModel

/// What the notification server reported about one of our notifications.
public enum DesktopSignal: Sendable, Hashable {
  /// `ActionInvoked(id, action_key)`.
  case actionInvoked(id: UInt32, key: String)
  /// `NotificationReplied(id, text)` (servers with `inline-reply`).
  case replied(id: UInt32, text: String)
  /// `NotificationClosed(id, reason)`: 1 expired, 2 dismissed by the user, 3 closed by
  /// `CloseNotification`, 4 undefined.
  case closed(id: UInt32, reason: UInt32)

  public var id: UInt32 {
    switch self {
    case .actionInvoked(let id, _), .replied(let id, _), .closed(let id, _): id
    }
  }
}

/// A signal turned into the `respond` a person at the desktop made: the usual rules
/// then apply in the center (proto-docs/README.md, "Desktop: org.freedesktop.Notifications").
public struct DesktopAnswer: Sendable, Hashable {
  public var app: String
  public var identifier: String
  public var actionIdentifier: String
  public var userText: String?

  public init(app: String, identifier: String, actionIdentifier: String, userText: String? = nil) {
    self.app = app
    self.identifier = identifier
    self.actionIdentifier = actionIdentifier
    self.userText = userText
  }

  /// The answer a signal means for the notification `identifier` of `app`, shown with
  /// the text-input action `replyAction` (nil when none was offered); nil when the signal
  /// changes nothing (closed because it expired, by us, or for no stated reason).
  public static func from(_ signal: DesktopSignal, app: String, identifier: String, replyAction: String?)
    -> DesktopAnswer?
  {
    switch signal {
    case .actionInvoked(_, let key):
      let action = key == NotifyArguments.defaultActionKey ? SystemAction.defaultAction : key
      return DesktopAnswer(app: app, identifier: identifier, actionIdentifier: action)
    case .replied(_, let text):
      guard let replyAction else { return nil }
      return DesktopAnswer(app: app, identifier: identifier, actionIdentifier: replyAction, userText: text)
    case .closed(_, let reason):
      guard reason == 2 else { return nil }
      return DesktopAnswer(app: app, identifier: identifier, actionIdentifier: SystemAction.dismissAction)
    }
  }
}

/// `stats.desktop` (proto-docs/README.md, "stats").
public struct DesktopCounters: Sendable, Hashable {
  /// A notification server answered `GetCapabilities` and has not gone away since.
  public var connected = false
  /// `Notify` calls the server accepted.
  public var shown = 0
  /// `CloseNotification` calls the server accepted.
  public var closed = 0
  /// Signals that became a `respond` the center accepted.
  public var answered = 0
  /// Calls the server refused, and answers the center refused.
  public var failed = 0

  public init() {}
}

/// `--desktop`.
public enum DesktopMode: String, Sendable, CaseIterable {
  case off, auto, freedesktop

  /// `auto`: on when a session bus is reachable: `$DBUS_SESSION_BUS_ADDRESS` is set, or
  /// `$XDG_RUNTIME_DIR/bus` exists (or `--desktop-bus` names one).
  public static func sessionBusReachable(
    environment: [String: String], explicitAddress: String?,
    fileExists: (String) -> Bool
  ) -> Bool {
    if explicitAddress != nil { return true }
    if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return true }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return fileExists(runtime + "/bus") }
    return false
  }
}
