import Foundation
import JSONRPC
import UNModel
import UNProtocol

/// `UNNotificationInterruptionLevel`.
public enum UNNotificationInterruptionLevel: String, Sendable, Hashable, CaseIterable {
  case passive, active, timeSensitive, critical
}

/// The fields of a notification's content, shared by the immutable and mutable classes:
/// the protocol's `Content` value, whose plain fields (texts, numbers, the interruption
/// level) are read and written through `ContentShape`'s table as the daemon reads and
/// writes them, and the Apple objects of the fields that have one (sound, attachments,
/// userInfo), kept as the app gave them and put into the value when it is encoded.
struct ContentFields {
  var wire = ContentFields.appleDefaults
  var sound: UNNotificationSound?
  var attachments: [UNNotificationAttachment] = []
  var userInfo: [AnyHashable: Any] = [:]

  /// Apple's defaults: as the protocol's, but a summary argument count of 0 (sent as 1).
  static let appleDefaults: Content = {
    var c = Content()
    c.summaryArgumentCount = 0
    return c
  }()

  /// The content as the daemon reads it.
  var value: Content {
    var c = wire
    c.summaryArgumentCount = max(1, c.summaryArgumentCount)
    c.sound = sound?.value
    c.attachments = attachments.map(\.value)
    c.userInfo = JSONText(bytes: Wire.object(userInfo).encoded())
    return c
  }

  init() {}

  /// Content the daemon wrote.
  init(_ c: Content) {
    wire = c
    sound = c.sound.map { UNNotificationSound(value: $0) }
    attachments = c.attachments.compactMap { UNNotificationAttachment.from(value: $0) }
    userInfo = Wire.userInfo(try? JSONParser.parse(c.userInfo.bytes))
    wire.sound = nil
    wire.attachments = []
    wire.userInfo = .emptyObject
  }
}

/// `UNNotificationContent`: what a notification shows, immutable as Apple's class.
/// `copy()` and `mutableCopy()` behave as Apple's (`NSCopying`, `NSMutableCopying`);
/// equality and hashing compare the wire form.
///
/// `@unchecked Sendable`, as Apple's: an instance of this class never changes after it
/// is made.  The mutable subclass is, as on Apple, for one owner to fill in; a request
/// takes an immutable copy of it, so what crosses threads is always a copy.
@dynamicMemberLookup
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
  var fields: ContentFields

  public override init() { fields = ContentFields() }
  init(fields: ContentFields) { self.fields = fields }

  public var title: String { fields.wire.title }
  public var subtitle: String { fields.wire.subtitle }
  public var body: String { fields.wire.body }
  public var badge: NSNumber? { fields.wire.badge.map { NSNumber(value: $0) } }
  public var sound: UNNotificationSound? { fields.sound }
  public var attachments: [UNNotificationAttachment] { fields.attachments }
  public var userInfo: [AnyHashable: Any] { fields.userInfo }
  public var categoryIdentifier: String { fields.wire.categoryIdentifier }
  public var threadIdentifier: String { fields.wire.threadIdentifier }
  public var summaryArgument: String { fields.wire.summaryArgument }
  /// 0 (Apple's default) is sent as 1, the daemon's "one item".
  public var summaryArgumentCount: Int { fields.wire.summaryArgumentCount }
  public var targetContentIdentifier: String? { fields.wire.targetContentIdentifier }
  public var interruptionLevel: UNNotificationInterruptionLevel {
    UNNotificationInterruptionLevel(rawValue: fields.wire.interruptionLevel.rawValue) ?? .active
  }
  public var relevanceScore: Double { fields.wire.relevanceScore }
  public var launchImageName: String { fields.wire.launchImageName }
  public var filterCriteria: String? { fields.wire.filterCriteria }

  /// Any other field of the protocol's content (`content.someField`): a field added to
  /// `Content` and its `ContentShape` row reads here, as the daemon sends it, with no
  /// edit of this class.
  public subscript<Value>(dynamicMember field: KeyPath<Content, Value>) -> Value { fields.wire[keyPath: field] }

  open func copy(with zone: NSZone? = nil) -> Any { UNNotificationContent(fields: fields) }
  open func mutableCopy(with zone: NSZone? = nil) -> Any { UNMutableNotificationContent(fields: fields) }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationContent else { return false }
    return wireValue == other.wireValue
  }

  open override var hash: Int { wireValue.hashValue }

  open override var description: String { "<UNNotificationContent: \(Wire.text(wireValue))>" }

  // MARK: wire shape

  /// The daemon's `Content` shape, written by `ContentShape` as the daemon writes it.
  public var wireValue: JSONValue {
    var bytes: [UInt8] = []
    ContentShape.encode(fields.value, &bytes)
    return (try? JSONParser.parse(bytes)) ?? .object([])
  }

  /// Content as the daemon wrote it, read by `ContentShape` (fields this version does
  /// not know are skipped; content that does not read leaves the defaults).
  public convenience init(wireValue v: JSONValue) {
    let known = v.objectValue.map { members in
      JSONValue.object(members.filter { m in ContentShape.names.contains(m.name) })
    }
    guard let known, let c = try? ContentShape.decode(known, stored: true) else {
      self.init(fields: ContentFields())
      return
    }
    self.init(fields: ContentFields(c))
  }
}

/// `UNMutableNotificationContent`: the content an app fills in
/// (`let content = UNMutableNotificationContent(); content.title = "…"`).
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
  public override var title: String {
    get { fields.wire.title }
    set { fields.wire.title = newValue }
  }
  public override var subtitle: String {
    get { fields.wire.subtitle }
    set { fields.wire.subtitle = newValue }
  }
  public override var body: String {
    get { fields.wire.body }
    set { fields.wire.body = newValue }
  }
  public override var badge: NSNumber? {
    get { super.badge }
    set { fields.wire.badge = newValue?.intValue }
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
    get { fields.wire.categoryIdentifier }
    set { fields.wire.categoryIdentifier = newValue }
  }
  public override var threadIdentifier: String {
    get { fields.wire.threadIdentifier }
    set { fields.wire.threadIdentifier = newValue }
  }
  public override var summaryArgument: String {
    get { fields.wire.summaryArgument }
    set { fields.wire.summaryArgument = newValue }
  }
  public override var summaryArgumentCount: Int {
    get { fields.wire.summaryArgumentCount }
    set { fields.wire.summaryArgumentCount = newValue }
  }
  public override var targetContentIdentifier: String? {
    get { fields.wire.targetContentIdentifier }
    set { fields.wire.targetContentIdentifier = newValue }
  }
  public override var interruptionLevel: UNNotificationInterruptionLevel {
    get { super.interruptionLevel }
    set { fields.wire.interruptionLevel = InterruptionLevel(rawValue: newValue.rawValue) ?? .active }
  }
  public override var relevanceScore: Double {
    get { fields.wire.relevanceScore }
    set { fields.wire.relevanceScore = newValue }
  }
  public override var launchImageName: String {
    get { fields.wire.launchImageName }
    set { fields.wire.launchImageName = newValue }
  }
  public override var filterCriteria: String? {
    get { fields.wire.filterCriteria }
    set { fields.wire.filterCriteria = newValue }
  }

  /// Any other field of the protocol's content, to set (`content.someField = ...`).
  public subscript<Value>(dynamicMember field: WritableKeyPath<Content, Value>) -> Value {
    get { fields.wire[keyPath: field] }
    set { fields.wire[keyPath: field] = newValue }
  }

  open override var description: String { "<UNMutableNotificationContent: \(Wire.text(wireValue))>" }
}
