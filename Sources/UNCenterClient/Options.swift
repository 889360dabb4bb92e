/// Option sets with Apple's names; each knows its wire name (proto-docs/README.md, "Shapes").
protocol WireOptionSet: OptionSet, Sendable, Hashable where RawValue == UInt, Element == Self {
  static var wireNames: [(Self, String)] { get }
}

extension WireOptionSet {
  var wireNameList: [String] { Self.wireNames.filter { contains($0.0) }.map(\.1) }

  init(wireNameList names: [String]) {
    self.init()
    for (option, name) in Self.wireNames where names.contains(name) { insert(option) }
  }
}

/// `UNNotificationActionOptions`.
public struct UNNotificationActionOptions: WireOptionSet {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
  public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
  public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
  static let wireNames: [(UNNotificationActionOptions, String)] = [
    (.authenticationRequired, "authenticationRequired"), (.destructive, "destructive"), (.foreground, "foreground"),
  ]
}

/// `UNNotificationCategoryOptions`.
public struct UNNotificationCategoryOptions: WireOptionSet {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
  public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
  public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
  public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
  public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
  static let wireNames: [(UNNotificationCategoryOptions, String)] = [
    (.customDismissAction, "customDismissAction"), (.allowInCarPlay, "allowInCarPlay"),
    (.hiddenPreviewsShowTitle, "hiddenPreviewsShowTitle"), (.hiddenPreviewsShowSubtitle, "hiddenPreviewsShowSubtitle"),
    (.allowAnnouncement, "allowAnnouncement"),
  ]
}

/// `UNNotificationPresentationOptions`: how a notification arriving in the foreground is shown.
public struct UNNotificationPresentationOptions: WireOptionSet {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
  public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
  /// Deprecated on iOS 14 for `banner` and `list`; sent as both.
  public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
  public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
  public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
  static let wireNames: [(UNNotificationPresentationOptions, String)] = [
    (.banner, "banner"), (.list, "list"), (.sound, "sound"), (.badge, "badge"),
  ]

  /// The wire names, with the deprecated `alert` as `banner` and `list`.
  var presentationWireNames: [String] {
    var options = self
    if contains(.alert) { options.formUnion([.banner, .list]) }
    return options.wireNameList
  }
}

/// `UNAuthorizationOptions`.
public struct UNAuthorizationOptions: WireOptionSet {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
  public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
  public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
  public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
  public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
  public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
  public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
  public static let announcement = UNAuthorizationOptions(rawValue: 1 << 7)
  public static let timeSensitive = UNAuthorizationOptions(rawValue: 1 << 8)
  static let wireNames: [(UNAuthorizationOptions, String)] = [
    (.badge, "badge"), (.sound, "sound"), (.alert, "alert"), (.carPlay, "carPlay"), (.criticalAlert, "criticalAlert"),
    (.providesAppNotificationSettings, "providesAppNotificationSettings"), (.provisional, "provisional"),
    (.announcement, "announcement"), (.timeSensitive, "timeSensitive"),
  ]
}
