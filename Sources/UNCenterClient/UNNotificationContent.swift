import Foundation
import JSONRPC

/// `UNNotificationInterruptionLevel`.
public enum UNNotificationInterruptionLevel: String, Sendable, Hashable, CaseIterable {
  case passive, active, timeSensitive, critical
}

/// The fields of a notification's content, shared by the immutable and mutable classes.
struct ContentFields {
  var title = ""
  var subtitle = ""
  var body = ""
  var badge: NSNumber?
  var sound: UNNotificationSound?
  var attachments: [UNNotificationAttachment] = []
  var userInfo: [AnyHashable: Any] = [:]
  var categoryIdentifier = ""
  var threadIdentifier = ""
  var summaryArgument = ""
  var summaryArgumentCount = 0
  var targetContentIdentifier: String?
  var interruptionLevel: UNNotificationInterruptionLevel = .active
  var relevanceScore = 0.0
  var launchImageName = ""
  var filterCriteria: String?
}

/// `UNNotificationContent`: what a notification shows, immutable as Apple's class.
/// `copy()` and `mutableCopy()` behave as Apple's (`NSCopying`, `NSMutableCopying`);
/// equality and hashing compare the wire form.
///
/// `@unchecked Sendable`, as Apple's: an instance of this class never changes after it
/// is made.  The mutable subclass is, as on Apple, for one owner to fill in; a request
/// takes an immutable copy of it, so what crosses threads is always a copy.
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
  var fields: ContentFields

  public override init() { fields = ContentFields() }
  init(fields: ContentFields) { self.fields = fields }

  public var title: String { fields.title }
  public var subtitle: String { fields.subtitle }
  public var body: String { fields.body }
  public var badge: NSNumber? { fields.badge }
  public var sound: UNNotificationSound? { fields.sound }
  public var attachments: [UNNotificationAttachment] { fields.attachments }
  public var userInfo: [AnyHashable: Any] { fields.userInfo }
  public var categoryIdentifier: String { fields.categoryIdentifier }
  public var threadIdentifier: String { fields.threadIdentifier }
  public var summaryArgument: String { fields.summaryArgument }
  /// 0 (Apple's default) is sent as 1, the daemon's "one item".
  public var summaryArgumentCount: Int { fields.summaryArgumentCount }
  public var targetContentIdentifier: String? { fields.targetContentIdentifier }
  public var interruptionLevel: UNNotificationInterruptionLevel { fields.interruptionLevel }
  public var relevanceScore: Double { fields.relevanceScore }
  public var launchImageName: String { fields.launchImageName }
  public var filterCriteria: String? { fields.filterCriteria }

  open func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(fields: fields) }
  open func mutableCopy(with zone: NSZone? = nil) -> Any { UNMutableNotificationContent(fields: fields) }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationContent else { return false }
    return wireValue == other.wireValue
  }

  open override var hash: Int { wireValue.hashValue }

  open override var description: String { "<UNNotificationContent: \(Wire.text(wireValue))>" }

  // MARK: wire shape

  /// The daemon's `Content` shape (proto-docs/README.md, "Shapes"), fields in its order.
  public var wireValue: JSONValue {
    let f = fields
    var m: [JSONMember] = [
      JSONMember("title", .string(f.title)), JSONMember("subtitle", .string(f.subtitle)),
      JSONMember("body", .string(f.body)),
    ]
    if let badge = f.badge { m.append(JSONMember("badge", .int(badge.intValue))) }
    if let sound = f.sound { m.append(JSONMember("sound", sound.wireValue)) }
    if !f.attachments.isEmpty { m.append(JSONMember("attachments", .array(f.attachments.map(\.wireValue)))) }
    m += [
      JSONMember("userInfo", Wire.object(f.userInfo)),
      JSONMember("categoryIdentifier", .string(f.categoryIdentifier)),
      JSONMember("threadIdentifier", .string(f.threadIdentifier)),
      JSONMember("summaryArgument", .string(f.summaryArgument)),
      JSONMember("summaryArgumentCount", .int(max(1, f.summaryArgumentCount))),
    ]
    if let t = f.targetContentIdentifier { m.append(JSONMember("targetContentIdentifier", .string(t))) }
    m += [
      JSONMember("interruptionLevel", .string(f.interruptionLevel.rawValue)),
      JSONMember("relevanceScore", .double(f.relevanceScore)),
      JSONMember("launchImageName", .string(f.launchImageName)),
    ]
    if let c = f.filterCriteria { m.append(JSONMember("filterCriteria", .string(c))) }
    return .object(m)
  }

  public convenience init(wireValue v: JSONValue) {
    var f = ContentFields()
    f.title = v["title"]?.stringValue ?? ""
    f.subtitle = v["subtitle"]?.stringValue ?? ""
    f.body = v["body"]?.stringValue ?? ""
    f.badge = v["badge"]?.intValue.map { NSNumber(value: $0) }
    f.sound = UNNotificationSound.from(wireValue: v["sound"])
    f.attachments = (v["attachments"]?.arrayValue ?? []).compactMap { UNNotificationAttachment.from(wireValue: $0) }
    f.userInfo = Wire.userInfo(v["userInfo"])
    f.categoryIdentifier = v["categoryIdentifier"]?.stringValue ?? ""
    f.threadIdentifier = v["threadIdentifier"]?.stringValue ?? ""
    f.summaryArgument = v["summaryArgument"]?.stringValue ?? ""
    f.summaryArgumentCount = v["summaryArgumentCount"]?.intValue ?? 1
    f.targetContentIdentifier = v["targetContentIdentifier"]?.stringValue
    f.interruptionLevel = v["interruptionLevel"]?.stringValue.flatMap(UNNotificationInterruptionLevel.init) ?? .active
    f.relevanceScore = v["relevanceScore"]?.doubleValue ?? 0
    f.launchImageName = v["launchImageName"]?.stringValue ?? ""
    f.filterCriteria = v["filterCriteria"]?.stringValue
    self.init(fields: f)
  }
}

/// `UNMutableNotificationContent`: the content an app fills in
/// (`let content = UNMutableNotificationContent(); content.title = "…"`).
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
  public override var title: String {
    get { fields.title }
    set { fields.title = newValue }
  }
  public override var subtitle: String {
    get { fields.subtitle }
    set { fields.subtitle = newValue }
  }
  public override var body: String {
    get { fields.body }
    set { fields.body = newValue }
  }
  public override var badge: NSNumber? {
    get { fields.badge }
    set { fields.badge = newValue }
  }
  public override var sound: UNNotificationSound? {
    get { fields.sound }
    set { fields.sound = newValue }
  }
  public override var attachments: [UNNotificationAttachment] {
    get { fields.attachments }
    set { fields.attachments = newValue }
  }
  public override var userInfo: [AnyHashable: Any] {
    get { fields.userInfo }
    set { fields.userInfo = newValue }
  }
  public override var categoryIdentifier: String {
    get { fields.categoryIdentifier }
    set { fields.categoryIdentifier = newValue }
  }
  public override var threadIdentifier: String {
    get { fields.threadIdentifier }
    set { fields.threadIdentifier = newValue }
  }
  public override var summaryArgument: String {
    get { fields.summaryArgument }
    set { fields.summaryArgument = newValue }
  }
  public override var summaryArgumentCount: Int {
    get { fields.summaryArgumentCount }
    set { fields.summaryArgumentCount = newValue }
  }
  public override var targetContentIdentifier: String? {
    get { fields.targetContentIdentifier }
    set { fields.targetContentIdentifier = newValue }
  }
  public override var interruptionLevel: UNNotificationInterruptionLevel {
    get { fields.interruptionLevel }
    set { fields.interruptionLevel = newValue }
  }
  public override var relevanceScore: Double {
    get { fields.relevanceScore }
    set { fields.relevanceScore = newValue }
  }
  public override var launchImageName: String {
    get { fields.launchImageName }
    set { fields.launchImageName = newValue }
  }
  public override var filterCriteria: String? {
    get { fields.filterCriteria }
    set { fields.filterCriteria = newValue }
  }

  open override var description: String { "<UNMutableNotificationContent: \(Wire.text(wireValue))>" }
}
