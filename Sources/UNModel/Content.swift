/// A JSON text kept verbatim in its compact form (`userInfo`).  The model never looks
/// inside it; the server validates and compacts it once, when it arrives.
public struct JSONText: Sendable, Hashable {
  public var bytes: [UInt8]
  public init(bytes: [UInt8]) { self.bytes = bytes }
  public static let emptyObject = JSONText(bytes: Array("{}".utf8))
}

/// A notification's sound, as `UNNotificationSound` holds it: the default sound or a
/// named one, optionally critical (`defaultCritical`, `criticalSoundNamed(_:)`) with a
/// volume (`...withAudioVolume:`).  On the wire a plain sound is a string (`"default"` or
/// the name) and any other an object `{name?, critical, volume?}`.
public struct Sound: Sendable, Hashable {
  /// The sound file's name; nil for the system's default sound.
  public var name: String?
  /// A critical alert sound: it plays even when muted or in Do Not Disturb, but only for
  /// an app whose `criticalAlertSetting` is enabled (otherwise it plays as a normal sound).
  public var critical: Bool
  /// The critical sound's volume, 0...1 (nil: the system's).
  public var volume: Double?

  public init(name: String? = nil, critical: Bool = false, volume: Double? = nil) {
    self.name = name
    self.critical = critical
    self.volume = volume
  }

  public static let `default` = Sound()
  public static func named(_ name: String) -> Sound { Sound(name: name) }

  /// Written as a string on the wire: neither critical nor with a volume.
  public var isPlain: Bool { !critical && volume == nil }

  /// The string form's text: the name, or `default`.
  public var wireName: String { name ?? "default" }

  /// This sound as an app without critical-alert permission hears it: a normal sound.
  public var uncritical: Sound { Sound(name: name) }
}

/// `UNNotificationAttachment`: a file shown with the notification.  `url` is a `file:` URL;
/// the daemon lists the copy it keeps in its data store, as iOS does.
public struct Attachment: Sendable, Hashable {
  public var identifier: String
  public var url: String
  /// A UTI hint (`UNNotificationAttachmentOptionsTypeHintKey`).
  public var type: String?

  public init(identifier: String, url: String, type: String? = nil) {
    self.identifier = identifier
    self.url = url
    self.type = type
  }
}

/// `UNNotificationInterruptionLevel`.
public enum InterruptionLevel: String, Sendable, CaseIterable {
  case passive, active, timeSensitive, critical
}

/// `UNNotificationContent`, with Apple's defaults.
///
/// Kept small because every pending request holds one: the fields nearly every
/// notification sets are stored inline, the rest in one shared box allocated only when
/// one of them differs from its default.
public struct Content: Sendable, Hashable {
  public var title = ""
  public var body = ""
  public var categoryIdentifier = ""
  public var threadIdentifier = ""
  public var userInfo = JSONText.emptyObject
  private var extras: Box?

  /// The less common fields, with Apple's defaults.
  struct Extras: Sendable, Hashable {
    var subtitle = ""
    var badge: Int?
    var sound: Sound?
    var summaryArgument = ""
    var summaryArgumentCount = 1
    var targetContentIdentifier: String?
    var interruptionLevel = InterruptionLevel.active
    var relevanceScore = 0.0
    var launchImageName = ""
    var filterCriteria: String?
    var attachments: [Attachment] = []
  }

  /// Copy-on-write box for `Extras`.
  ///
  /// `@unchecked Sendable`: `value` is only mutated through `Content.update`, which
  /// first copies the box unless this content holds the only reference, so a box
  /// reachable from two values (or threads) is never written.
  final class Box: @unchecked Sendable {
    var value: Extras
    init(_ value: Extras) { self.value = value }
  }

  public init() {}

  /// A content from its inline fields and a shared extras box, as a pending record
  /// stores them (the box is shared, not copied: `update` copies it before a write).
  init(
    title: String, body: String, categoryIdentifier: String, threadIdentifier: String, userInfo: JSONText,
    extras: Box?
  ) {
    self.title = title
    self.body = body
    self.categoryIdentifier = categoryIdentifier
    self.threadIdentifier = threadIdentifier
    self.userInfo = userInfo
    self.extras = extras
  }

  /// The box of uncommon fields (nil when all are defaults), for a pending record to keep.
  var extrasBox: Box? { extras }

  /// No uncommon field was ever set: the inline fields are the whole content (as
  /// `PendingView.hasOnlyCommonContent` tells of a stored request).
  public var hasOnlyCommonFields: Bool { extras == nil }

  /// The boxed fields (defaults when none was set); getters read the box directly, so
  /// reading a field never builds a default `Extras`.
  private var fields: Extras { extras?.value ?? Extras() }

  private mutating func update(_ change: (inout Extras) -> Void) {
    if extras == nil {
      extras = Box(Extras())
    } else if !isKnownUniquelyReferenced(&extras!) {
      extras = Box(extras!.value)
    }
    change(&extras!.value)
  }

  public var subtitle: String {
    get { extras?.value.subtitle ?? "" }
    set { update { $0.subtitle = newValue } }
  }
  public var badge: Int? {
    get { extras?.value.badge ?? nil }
    set { update { $0.badge = newValue } }
  }
  public var sound: Sound? {
    get { extras?.value.sound ?? nil }
    set { update { $0.sound = newValue } }
  }
  public var summaryArgument: String {
    get { extras?.value.summaryArgument ?? "" }
    set { update { $0.summaryArgument = newValue } }
  }
  public var summaryArgumentCount: Int {
    get { extras?.value.summaryArgumentCount ?? 1 }
    set { update { $0.summaryArgumentCount = newValue } }
  }
  public var targetContentIdentifier: String? {
    get { extras?.value.targetContentIdentifier ?? nil }
    set { update { $0.targetContentIdentifier = newValue } }
  }
  public var interruptionLevel: InterruptionLevel {
    get { extras?.value.interruptionLevel ?? .active }
    set { update { $0.interruptionLevel = newValue } }
  }
  public var relevanceScore: Double {
    get { extras?.value.relevanceScore ?? 0 }
    set { update { $0.relevanceScore = newValue } }
  }
  public var launchImageName: String {
    get { extras?.value.launchImageName ?? "" }
    set { update { $0.launchImageName = newValue } }
  }
  public var filterCriteria: String? {
    get { extras?.value.filterCriteria ?? nil }
    set { update { $0.filterCriteria = newValue } }
  }

  public var attachments: [Attachment] {
    get { extras?.value.attachments ?? [] }
    set { update { $0.attachments = newValue } }
  }

  public static func == (a: Content, b: Content) -> Bool {
    a.title == b.title && a.body == b.body && a.categoryIdentifier == b.categoryIdentifier
      && a.threadIdentifier == b.threadIdentifier && a.userInfo == b.userInfo && a.fields == b.fields
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(body)
    hasher.combine(categoryIdentifier)
    hasher.combine(threadIdentifier)
    hasher.combine(userInfo)
    hasher.combine(fields)
  }

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
    if let volume = sound?.volume, !(volume >= 0 && volume <= 1) {
      throw .invalidParams(field: path + ".sound.volume", problem: "must be a number in 0...1, got \(volume)")
    }
  }
}
