import JSONRPC

/// `UNAuthorizationStatus`.
public enum UNAuthorizationStatus: String, Sendable, Hashable, CaseIterable {
  case notDetermined, denied, authorized, provisional, ephemeral
}

/// `UNNotificationSetting`.
public enum UNNotificationSetting: String, Sendable, Hashable, CaseIterable {
  case notSupported, disabled, enabled
}

/// `UNAlertStyle`.
public enum UNAlertStyle: String, Sendable, Hashable, CaseIterable {
  case none, banner, alert
}

/// `UNShowPreviewsSetting`.
public enum UNShowPreviewsSetting: String, Sendable, Hashable, CaseIterable {
  case always, whenAuthenticated, never
}

/// `UNNotificationSettings`: the app's authorization and per-feature settings.
public struct UNNotificationSettings: Sendable, Hashable {
  public var authorizationStatus: UNAuthorizationStatus = .notDetermined
  public var soundSetting: UNNotificationSetting = .notSupported
  public var badgeSetting: UNNotificationSetting = .notSupported
  public var alertSetting: UNNotificationSetting = .notSupported
  public var notificationCenterSetting: UNNotificationSetting = .notSupported
  public var lockScreenSetting: UNNotificationSetting = .notSupported
  public var carPlaySetting: UNNotificationSetting = .notSupported
  public var criticalAlertSetting: UNNotificationSetting = .notSupported
  public var announcementSetting: UNNotificationSetting = .notSupported
  public var timeSensitiveSetting: UNNotificationSetting = .notSupported
  public var alertStyle: UNAlertStyle = .none
  public var showPreviewsSetting: UNShowPreviewsSetting = .always
  public var providesAppNotificationSettings = false

  public init() {}

  public init(wireValue v: JSONValue) {
    func setting(_ name: String) -> UNNotificationSetting {
      v[name]?.stringValue.flatMap(UNNotificationSetting.init) ?? .notSupported
    }
    authorizationStatus = v["authorizationStatus"]?.stringValue.flatMap(UNAuthorizationStatus.init) ?? .notDetermined
    soundSetting = setting("soundSetting")
    badgeSetting = setting("badgeSetting")
    alertSetting = setting("alertSetting")
    notificationCenterSetting = setting("notificationCenterSetting")
    lockScreenSetting = setting("lockScreenSetting")
    carPlaySetting = setting("carPlaySetting")
    criticalAlertSetting = setting("criticalAlertSetting")
    announcementSetting = setting("announcementSetting")
    timeSensitiveSetting = setting("timeSensitiveSetting")
    alertStyle = v["alertStyle"]?.stringValue.flatMap(UNAlertStyle.init) ?? .none
    showPreviewsSetting = v["showPreviewsSetting"]?.stringValue.flatMap(UNShowPreviewsSetting.init) ?? .always
    providesAppNotificationSettings = v["providesAppNotificationSettings"]?.boolValue ?? false
  }
}
