import Foundation
import JSONRPC

/// `UNNotificationTrigger`: when a request fires.  Apple's class hierarchy becomes a
/// protocol with one value type per kind; `request.trigger as? UNCalendarNotificationTrigger`
/// works as on iOS.  Validation (positive intervals, at least 60 s when repeating, a
/// calendar date that can occur) happens at the daemon and comes back as a thrown
/// `UNCenterError.rpc` carrying its message.
public protocol UNNotificationTrigger: Sendable, CustomStringConvertible {
  var repeats: Bool { get }
  /// The daemon's trigger object.
  var wireValue: JSONValue { get }
}

extension UNNotificationTrigger {
  public var description: String { Wire.text(wireValue) }
}

/// `UNTimeIntervalNotificationTrigger`: fires `timeInterval` seconds after it is added.
public struct UNTimeIntervalNotificationTrigger: UNNotificationTrigger, Hashable {
  public let timeInterval: TimeInterval
  public let repeats: Bool
  public init(timeInterval: TimeInterval, repeats: Bool) {
    self.timeInterval = timeInterval
    self.repeats = repeats
  }
  public var wireValue: JSONValue {
    .object(["type": .string("timeInterval"), "timeInterval": .double(timeInterval), "repeats": .bool(repeats)])
  }
}

/// `UNCalendarNotificationTrigger`: fires when the date matches the given components,
/// in `dateComponents.timeZone` (the daemon's zone when nil).
public struct UNCalendarNotificationTrigger: UNNotificationTrigger, Hashable {
  public let dateComponents: DateComponents
  public let repeats: Bool
  public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
    self.dateComponents = dateComponents
    self.repeats = repeats
  }

  static let fields: [(String, Calendar.Component)] = [
    ("year", .year), ("month", .month), ("day", .day), ("hour", .hour), ("minute", .minute), ("second", .second),
    ("weekday", .weekday),
  ]

  /// `{type: "calendar", dateMatching: {year?, month?, day?, hour?, minute?, second?, weekday?}, timeZone?, repeats}`.
  public var wireValue: JSONValue {
    var matching: [JSONMember] = []
    for (name, component) in Self.fields {
      if let v = dateComponents.value(for: component), v != NSDateComponentUndefined {
        matching.append(JSONMember(name, .int(v)))
      }
    }
    var m: [JSONMember] = [JSONMember("type", .string("calendar")), JSONMember("dateMatching", .object(matching))]
    if let zone = dateComponents.timeZone { m.append(JSONMember("timeZone", .string(zone.identifier))) }
    m.append(JSONMember("repeats", .bool(repeats)))
    return .object(m)
  }

  init(wireValue v: JSONValue) {
    var c = DateComponents()
    for (name, component) in Self.fields {
      if let n = v["dateMatching"]?[name]?.intValue { c.setValue(n, for: component) }
    }
    if let zone = v["timeZone"]?.stringValue { c.timeZone = TimeZone(identifier: zone) }
    self.init(dateMatching: c, repeats: v["repeats"]?.boolValue ?? false)
  }
}

/// `UNPushNotificationTrigger`: the trigger of a notification that came from `pushRemote`.
public struct UNPushNotificationTrigger: UNNotificationTrigger, Hashable {
  public var repeats: Bool { false }
  public var wireValue: JSONValue { .object(["type": .string("push")]) }
}

enum TriggerWire {
  static func encode(_ trigger: (any UNNotificationTrigger)?) -> JSONValue { trigger?.wireValue ?? .null }

  static func decode(_ v: JSONValue?) -> (any UNNotificationTrigger)? {
    guard let v else { return nil }
    switch v["type"]?.stringValue {
    case "timeInterval":
      return UNTimeIntervalNotificationTrigger(
        timeInterval: v["timeInterval"]?.doubleValue ?? 0, repeats: v["repeats"]?.boolValue ?? false)
    case "calendar": return UNCalendarNotificationTrigger(wireValue: v)
    case "push": return UNPushNotificationTrigger()
    default: return nil
    }
  }
}
