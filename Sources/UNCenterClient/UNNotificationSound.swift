import Foundation
import JSONRPC
import UNModel
import UNProtocol

/// `UNNotificationSoundName`.
public struct UNNotificationSoundName: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { rawValue = value }
}

/// `UNNotificationSound`: the default sound or a named one, optionally critical with a
/// volume.  Immutable, as Apple's class; the factories are Apple's.
///
/// `@unchecked Sendable`: every stored property is a `let` of a Sendable type; the class
/// is open only so that it has Apple's shape.
open class UNNotificationSound: NSObject, NSCopying, @unchecked Sendable {
  /// nil for the default sound.
  public let name: UNNotificationSoundName?
  public let isCritical: Bool
  /// 0...1 for a critical sound given a volume.
  public let volume: Float?
  let isRingtone: Bool

  init(name: UNNotificationSoundName?, critical: Bool = false, volume: Float? = nil, ringtone: Bool = false) {
    self.name = name
    self.isCritical = critical
    self.volume = volume.map { min(1, max(0, $0)) }
    self.isRingtone = ringtone
  }

  public class var `default`: UNNotificationSound { UNNotificationSound(name: nil) }
  public class var defaultCritical: UNNotificationSound { UNNotificationSound(name: nil, critical: true) }
  public class var defaultRingtone: UNNotificationSound { UNNotificationSound(name: nil, ringtone: true) }

  public class func defaultCriticalSound(withAudioVolume volume: Float) -> UNNotificationSound {
    UNNotificationSound(name: nil, critical: true, volume: volume)
  }

  public convenience init(named name: UNNotificationSoundName) { self.init(name: name) }

  public class func criticalSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
    UNNotificationSound(name: name, critical: true)
  }

  public class func criticalSoundNamed(_ name: UNNotificationSoundName, withAudioVolume volume: Float)
    -> UNNotificationSound
  {
    UNNotificationSound(name: name, critical: true, volume: volume)
  }

  public class func ringtoneSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
    UNNotificationSound(name: name, ringtone: true)
  }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  /// The protocol's sound value (a ringtone is sent as the plain sound it names).
  var value: Sound { Sound(name: name?.rawValue, critical: isCritical, volume: volume.map { Double($0) }) }

  /// A sound the daemon wrote.
  convenience init(value s: Sound) {
    self.init(
      name: s.name.map { UNNotificationSoundName($0) }, critical: s.critical, volume: s.volume.map { Float($0) })
  }

  /// The daemon's sound shape, written by `SoundShape`.
  var wireValue: JSONValue {
    var bytes: [UInt8] = []
    SoundShape.encode(value, &bytes)
    return (try? JSONParser.parse(bytes)) ?? .null
  }

  /// A sound the daemon wrote, read by `SoundShape`; nil for null, absent or unreadable.
  static func from(wireValue v: JSONValue?) -> UNNotificationSound? {
    guard let v, let p = try? Params(.object([JSONMember("sound", v)]), allowed: ["sound"], stored: true),
      let sound = try? SoundShape.decode(p)
    else { return nil }
    return UNNotificationSound(value: sound)
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationSound else { return false }
    return wireValue == other.wireValue && isRingtone == other.isRingtone
  }

  open override var hash: Int { wireValue.hashValue }
}
