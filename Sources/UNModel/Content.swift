/// A JSON text kept verbatim in its compact form (`userInfo`).  The model never looks
/// inside it; the server validates and compacts it once, when it arrives.
public struct JSONText: Sendable, Hashable {
  public var bytes: [UInt8]
  public init(bytes: [UInt8]) { self.bytes = bytes }
  public static let emptyObject = JSONText(bytes: Array("{}".utf8))
}

/// A notification's sound: the default sound or a named one.
public enum Sound: Sendable, Hashable {
  case `default`
  case named(String)
}

/// `UNNotificationInterruptionLevel`.
public enum InterruptionLevel: String, Sendable, CaseIterable {
  case passive, active, timeSensitive, critical
}

/// `UNNotificationContent`, with Apple's defaults.
public struct Content: Sendable, Hashable {
  public var title = ""
  public var subtitle = ""
  public var body = ""
  public var badge: Int?
  public var sound: Sound?
  public var userInfo = JSONText.emptyObject
  public var categoryIdentifier = ""
  public var threadIdentifier = ""
  public var summaryArgument = ""
  public var summaryArgumentCount = 1
  public var targetContentIdentifier: String?
  public var interruptionLevel = InterruptionLevel.active
  public var relevanceScore = 0.0
  public var launchImageName = ""
  public var filterCriteria: String?

  public init() {}

  /// Checks the value rules the wire types cannot express.
  public func validate(path: String = "content") throws(UNError) {
    if let badge, badge < 0 {
      throw .invalidParams(field: path + ".badge", problem: "badgeInputInvalid: must be >= 0, got \(badge)")
    }
    guard summaryArgumentCount >= 1 else {
      throw .invalidParams(
        field: path + ".summaryArgumentCount", problem: "must be an integer >= 1, got \(summaryArgumentCount)")
    }
    guard relevanceScore >= 0, relevanceScore <= 1 else {
      throw .invalidParams(field: path + ".relevanceScore", problem: "must be a number in 0...1")
    }
  }
}
