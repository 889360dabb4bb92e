import UNModel

/// The arguments of one `org.freedesktop.Notifications.Notify` call (Desktop
/// Notifications Specification 1.2), worked out from a delivered notification with no
/// D-Bus in sight, so every rule of proto-docs/README.md's
/// "Desktop: org.freedesktop.Notifications" is a plain unit test.
public struct NotifyArguments: Sendable, Hashable {
  /// A hint's value, typed as the specification types it.
  public enum Hint: Sendable, Hashable {
    case byte(UInt8)
    case string(String)
    case boolean(Bool)
  }

  public var appName: String
  public var replacesId: UInt32
  public var appIcon = ""
  public var summary: String
  public var body: String
  /// Alternating action keys and labels, as the `as` argument wants them.
  public var actions: [String]
  /// In a stable order (the `a{sv}` dictionary is unordered on the wire).
  public var hints: [(String, Hint)]
  public var expireTimeout: Int32

  public static func == (a: NotifyArguments, b: NotifyArguments) -> Bool {
    a.appName == b.appName && a.replacesId == b.replacesId && a.appIcon == b.appIcon && a.summary == b.summary
      && a.body == b.body && a.actions == b.actions && a.hints.map(\.0) == b.hints.map(\.0)
      && a.hints.map(\.1) == b.hints.map(\.1) && a.expireTimeout == b.expireTimeout
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(appName)
    hasher.combine(summary)
  }

  /// The key of the default action (a click on the banner): the specification's own.
  public static let defaultActionKey = "default"
  /// Its label, for servers that show the default action as a button.
  public static let defaultActionLabel = "Open"

  /// Whether the desktop shows this content at all: a notification with no alert text
  /// (badge or sound only) is never a banner.
  public static func hasAlertText(_ content: Content) -> Bool {
    !content.title.isEmpty || !content.subtitle.isEmpty || !content.body.isEmpty
  }

  /// The `Notify` arguments for `notification` of `app`, shown by a server with
  /// `capabilities`, replacing the server's notification `replacesId` (0: a new one).
  public init(
    app: String, notification: DeliveredNotification, capabilities: Set<String>, replacesId: UInt32
  ) {
    let content = notification.request.content
    appName = app
    self.replacesId = replacesId
    summary = content.title.isEmpty ? app : content.title
    let text = content.subtitle.isEmpty ? content.body : content.subtitle + "\n" + content.body
    body = capabilities.contains("body-markup") ? Self.escapeMarkup(text) : text
    var actions: [String] = []
    if capabilities.contains("actions") {
      actions = [Self.defaultActionKey, Self.defaultActionLabel]
      let inlineReply = capabilities.contains("inline-reply")
      for action in notification.actions where action.textInput == nil || inlineReply {
        actions += [action.identifier, action.title]
      }
    }
    self.actions = actions
    var hints: [(String, Hint)] = [("urgency", .byte(Self.urgency(content.interruptionLevel)))]
    if let sound = content.sound {
      if let name = sound.name { hints.append(("sound-name", .string(name))) }
    } else {
      hints.append(("suppress-sound", .boolean(true)))
    }
    hints.append(("x-uncenter-app", .string(app)))
    hints.append(("x-uncenter-identifier", .string(notification.identifier)))
    self.hints = hints
    expireTimeout = content.interruptionLevel == .critical ? 0 : -1
  }

  /// The specification's urgency byte: low, normal, critical.
  public static func urgency(_ level: InterruptionLevel) -> UInt8 {
    switch level {
    case .passive: 0
    case .active, .timeSensitive: 1
    case .critical: 2
    }
  }

  /// The body markup is a small XML subset: `&`, `<` and `>` must be entities.
  public static func escapeMarkup(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }
}
