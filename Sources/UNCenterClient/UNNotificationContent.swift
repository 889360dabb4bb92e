import JSONRPC
import Synchronization

/// `UNNotificationSoundName`.
public struct UNNotificationSoundName: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { rawValue = value }
}

/// `UNNotificationSound`: the system sound or a named one.
public struct UNNotificationSound: Sendable, Hashable {
  /// nil for the default sound.
  public let name: UNNotificationSoundName?
  public static let `default` = UNNotificationSound(name: nil)
  public init(named name: UNNotificationSoundName) { self.name = name }
  private init(name: UNNotificationSoundName?) { self.name = name }

  var wireValue: JSONValue { .string(name?.rawValue ?? "default") }
  init(wireName: String) { self.init(name: wireName == "default" ? nil : UNNotificationSoundName(wireName)) }
}

/// `UNNotificationInterruptionLevel`.
public enum UNNotificationInterruptionLevel: String, Sendable, Hashable, CaseIterable {
  case passive, active, timeSensitive, critical
}

/// `UNNotificationContent`: what a notification shows, as a value.
///
/// `userInfo` holds JSON-compatible values (String, Bool, Int, Double, arrays and
/// `[String: any Sendable]` dictionaries); equality and hashing compare its JSON form.
public struct UNNotificationContent: Sendable, Hashable {
  public var title = ""
  public var subtitle = ""
  public var body = ""
  public var badge: Int?
  public var sound: UNNotificationSound?
  public var userInfo: [String: any Sendable] = [:]
  public var categoryIdentifier = ""
  public var threadIdentifier = ""
  public var summaryArgument = ""
  public var summaryArgumentCount = 1
  public var targetContentIdentifier: String?
  public var interruptionLevel: UNNotificationInterruptionLevel = .active
  public var relevanceScore = 0.0
  public var launchImageName = ""
  public var filterCriteria: String?

  public init() {}

  public static func == (a: UNNotificationContent, b: UNNotificationContent) -> Bool { a.wireValue == b.wireValue }
  public func hash(into hasher: inout Hasher) { hasher.combine(wireValue) }
}

/// `UNMutableNotificationContent`: a reference type as on iOS, so the usual
/// `let content = UNMutableNotificationContent(); content.title = "…"` works.  Its
/// fields live in a `Mutex`, which makes it `Sendable` without unchecked conformance;
/// a request takes a snapshot of it when it is created, as iOS copies it.
public final class UNMutableNotificationContent: Sendable {
  private let fields: Mutex<UNNotificationContent>

  public init() { fields = Mutex(UNNotificationContent()) }
  public init(_ content: UNNotificationContent) { fields = Mutex(content) }

  /// The current fields as an immutable value.
  public var content: UNNotificationContent { fields.withLock { $0 } }

  public var title: String { get { fields.withLock { $0.title } } set { fields.withLock { $0.title = newValue } } }
  public var subtitle: String { get { fields.withLock { $0.subtitle } } set { fields.withLock { $0.subtitle = newValue } } }
  public var body: String { get { fields.withLock { $0.body } } set { fields.withLock { $0.body = newValue } } }
  public var badge: Int? { get { fields.withLock { $0.badge } } set { fields.withLock { $0.badge = newValue } } }
  public var sound: UNNotificationSound? { get { fields.withLock { $0.sound } } set { fields.withLock { $0.sound = newValue } } }
  public var userInfo: [String: any Sendable] {
    get { fields.withLock { $0.userInfo } }
    set { fields.withLock { $0.userInfo = newValue } }
  }
  public var categoryIdentifier: String { get { fields.withLock { $0.categoryIdentifier } } set { fields.withLock { $0.categoryIdentifier = newValue } } }
  public var threadIdentifier: String { get { fields.withLock { $0.threadIdentifier } } set { fields.withLock { $0.threadIdentifier = newValue } } }
  public var summaryArgument: String { get { fields.withLock { $0.summaryArgument } } set { fields.withLock { $0.summaryArgument = newValue } } }
  public var summaryArgumentCount: Int {
    get { fields.withLock { $0.summaryArgumentCount } }
    set { fields.withLock { $0.summaryArgumentCount = newValue } }
  }
  public var targetContentIdentifier: String? {
    get { fields.withLock { $0.targetContentIdentifier } }
    set { fields.withLock { $0.targetContentIdentifier = newValue } }
  }
  public var interruptionLevel: UNNotificationInterruptionLevel {
    get { fields.withLock { $0.interruptionLevel } }
    set { fields.withLock { $0.interruptionLevel = newValue } }
  }
  public var relevanceScore: Double { get { fields.withLock { $0.relevanceScore } } set { fields.withLock { $0.relevanceScore = newValue } } }
  public var launchImageName: String { get { fields.withLock { $0.launchImageName } } set { fields.withLock { $0.launchImageName = newValue } } }
  public var filterCriteria: String? { get { fields.withLock { $0.filterCriteria } } set { fields.withLock { $0.filterCriteria = newValue } } }
}

// MARK: wire shape

extension UNNotificationContent {
  /// The daemon's `Content` shape (SPEC §5), fields in its order.
  public var wireValue: JSONValue {
    var m: [JSONMember] = [
      JSONMember("title", .string(title)), JSONMember("subtitle", .string(subtitle)), JSONMember("body", .string(body)),
    ]
    if let badge { m.append(JSONMember("badge", .int(badge))) }
    if let sound { m.append(JSONMember("sound", sound.wireValue)) }
    m += [
      JSONMember("userInfo", Wire.object(userInfo)),
      JSONMember("categoryIdentifier", .string(categoryIdentifier)),
      JSONMember("threadIdentifier", .string(threadIdentifier)),
      JSONMember("summaryArgument", .string(summaryArgument)),
      JSONMember("summaryArgumentCount", .int(summaryArgumentCount)),
    ]
    if let t = targetContentIdentifier { m.append(JSONMember("targetContentIdentifier", .string(t))) }
    m += [
      JSONMember("interruptionLevel", .string(interruptionLevel.rawValue)),
      JSONMember("relevanceScore", .double(relevanceScore)),
      JSONMember("launchImageName", .string(launchImageName)),
    ]
    if let f = filterCriteria { m.append(JSONMember("filterCriteria", .string(f))) }
    return .object(m)
  }

  public init(wireValue v: JSONValue) {
    self.init()
    title = v["title"]?.stringValue ?? ""
    subtitle = v["subtitle"]?.stringValue ?? ""
    body = v["body"]?.stringValue ?? ""
    badge = v["badge"]?.intValue
    sound = v["sound"]?.stringValue.map { UNNotificationSound(wireName: $0) }
    userInfo = Wire.dictionary(v["userInfo"])
    categoryIdentifier = v["categoryIdentifier"]?.stringValue ?? ""
    threadIdentifier = v["threadIdentifier"]?.stringValue ?? ""
    summaryArgument = v["summaryArgument"]?.stringValue ?? ""
    summaryArgumentCount = v["summaryArgumentCount"]?.intValue ?? 1
    targetContentIdentifier = v["targetContentIdentifier"]?.stringValue
    interruptionLevel = v["interruptionLevel"]?.stringValue.flatMap(UNNotificationInterruptionLevel.init) ?? .active
    relevanceScore = v["relevanceScore"]?.doubleValue ?? 0
    launchImageName = v["launchImageName"]?.stringValue ?? ""
    filterCriteria = v["filterCriteria"]?.stringValue
  }
}
