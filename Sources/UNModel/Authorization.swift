/// `UNAuthorizationOptions`, by Apple's names.
public enum AuthorizationOption: String, Sendable, CaseIterable {
  case badge, sound, alert, carPlay, criticalAlert, providesAppNotificationSettings, provisional, announcement,
    timeSensitive
}

/// `UNNotificationSettings`: the status and, per feature, `enabled`, `disabled` or
/// `notSupported` (`UNNotificationSetting`).
public struct NotificationSettings: Sendable, Hashable {
  public var authorizationStatus: AuthorizationStatus
  /// Feature name → setting, in Apple's property order.
  public var features: [(String, String)]

  public static func == (a: NotificationSettings, b: NotificationSettings) -> Bool {
    a.authorizationStatus == b.authorizationStatus && a.features.map(\.0) == b.features.map(\.0)
      && a.features.map(\.1) == b.features.map(\.1)
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(authorizationStatus) }

  /// What iOS reports: nothing is enabled before the user decides or after a denial;
  /// provisional delivery shows in Notification Center only, without sound or badge.
  init(status: AuthorizationStatus, granted: [AuthorizationOption]) {
    authorizationStatus = status
    let allowed = status == .authorized || status == .ephemeral
    func setting(_ option: AuthorizationOption) -> String {
      switch status {
      case .notDetermined: return "notSupported"
      case .denied: return "disabled"
      case .provisional: return option == .alert ? "enabled" : "disabled"
      case .authorized, .ephemeral: return allowed && granted.contains(option) ? "enabled" : "disabled"
      }
    }
    let center = status == .denied || status == .notDetermined ? setting(.alert) : "enabled"
    features = [
      ("soundSetting", setting(.sound)),
      ("badgeSetting", setting(.badge)),
      ("alertSetting", setting(.alert)),
      ("notificationCenterSetting", center),
      ("lockScreenSetting", status == .provisional ? "disabled" : setting(.alert)),
      ("carPlaySetting", setting(.carPlay)),
      ("criticalAlertSetting", setting(.criticalAlert)),
      ("announcementSetting", setting(.announcement)),
      ("timeSensitiveSetting", setting(.timeSensitive)),
      ("alertStyle", status == .authorized || status == .ephemeral ? "banner" : "none"),
      ("showPreviewsSetting", "always"),
      ("providesAppNotificationSettings", granted.contains(.providesAppNotificationSettings) ? "true" : "false"),
    ]
  }
}

extension Center {
  public func settings(app appId: String) -> NotificationSettings {
    let state = app(appId)
    return NotificationSettings(status: state.authorization, granted: state.grantedOptions)
  }

  /// `requestAuthorization`: on `notDetermined` the simulated user answers (grant unless
  /// told otherwise; `provisional` is granted without asking, as iOS does); afterwards
  /// the stored decision is returned without asking again.
  public func requestAuthorization(app appId: String, options: [AuthorizationOption]) -> (
    granted: Bool, settings: NotificationSettings
  ) {
    let before = app(appId).authorization
    withApp(appId) { app in
      // iOS asks for critical alerts in a prompt of their own, also once notifications are
      // allowed: the simulated user's answer adds the option (or not).
      if app.authorization == .authorized || app.authorization == .ephemeral, options.contains(.criticalAlert),
        !app.grantedOptions.contains(.criticalAlert)
      {
        if app.nextAnswer ?? true { app.grantedOptions.append(.criticalAlert) }
        app.nextAnswer = nil
        return
      }
      guard
        app.authorization == .notDetermined || (app.authorization == .provisional && !options.contains(.provisional))
      else { return }
      if options.contains(.provisional), app.authorization == .notDetermined {
        app.authorization = .provisional
      } else {
        app.authorization = (app.nextAnswer ?? true) ? .authorized : .denied
        app.nextAnswer = nil
      }
      app.grantedOptions = options.filter { $0 != .provisional }
    }
    let after = app(appId).authorization
    if after != before { emit(.authorization, app: appId, [("status", .string(after.rawValue))]) }
    let granted = after == .authorized || after == .provisional || after == .ephemeral
    return (granted, settings(app: appId))
  }

  /// `setAuthorization`: the user changing the app's Settings (`status`), and/or the
  /// answer the simulated user will give to the next prompt.
  public func setAuthorization(app appId: String, status: AuthorizationStatus?, answer: Bool?) -> NotificationSettings {
    let before = app(appId).authorization
    withApp(appId) { app in
      if let status { app.authorization = status }
      if let answer { app.nextAnswer = answer }
    }
    let after = app(appId).authorization
    if after != before { emit(.authorization, app: appId, [("status", .string(after.rawValue))]) }
    return settings(app: appId)
  }
}
