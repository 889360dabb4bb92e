import Foundation
import JSONRPC

/// `UNNotificationTrigger`: when a request fires.  Apple's class hierarchy, so
/// `request.trigger as? UNCalendarNotificationTrigger` works as on iOS.  Validation
/// (positive intervals, at least 60 s when repeating, a calendar date that can occur)
/// happens at the daemon and comes back as a thrown `UNCenterError.rpc` carrying its message.
///
/// `@unchecked Sendable`: immutable (`let`s of Sendable types; `scheduledDate` is set
/// once, before the trigger is handed out).
open class UNNotificationTrigger: NSObject, NSCopying, @unchecked Sendable {
  public let repeats: Bool
  /// The daemon's next date for a pending request (from `pendingNotificationRequests`).
  var scheduledDate: Date?

  init(repeats: Bool) { self.repeats = repeats }

  /// The daemon's trigger object.
  public var wireValue: JSONValue { .null }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationTrigger else { return false }
    return type(of: self) == type(of: other) && wireValue == other.wireValue
  }

  open override var hash: Int { wireValue.hashValue }
  open override var description: String { Wire.text(wireValue) }

  static func from(wireValue v: JSONValue?) -> UNNotificationTrigger? {
    guard let v else { return nil }
    switch v["type"]?.stringValue {
    case "timeInterval":
      return UNTimeIntervalNotificationTrigger(
        timeInterval: v["timeInterval"]?.doubleValue ?? 0, repeats: v["repeats"]?.boolValue ?? false)
    case "calendar": return UNCalendarNotificationTrigger(wireValue: v)
    case "push": return UNPushNotificationTrigger(repeats: false)
    default: return nil
    }
  }
}

/// `UNTimeIntervalNotificationTrigger`: fires `timeInterval` seconds after it is added.
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  public let timeInterval: TimeInterval

  public init(timeInterval: TimeInterval, repeats: Bool) {
    self.timeInterval = timeInterval
    super.init(repeats: repeats)
  }

  /// For a pending request, the daemon's next date; otherwise now plus the interval, as Apple's.
  public func nextTriggerDate() -> Date? { scheduledDate ?? Date().addingTimeInterval(timeInterval) }

  public override var wireValue: JSONValue {
    .object(["type": .string("timeInterval"), "timeInterval": .double(timeInterval), "repeats": .bool(repeats)])
  }
}

/// `UNCalendarNotificationTrigger`: fires when the date matches the given components,
/// in `dateComponents.timeZone`, else the time zone of `dateComponents.calendar`, else
/// the daemon's zone.
open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  public let dateComponents: DateComponents

  public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
    self.dateComponents = dateComponents
    super.init(repeats: repeats)
  }

  static let fields: [(String, Calendar.Component)] = [
    ("year", .year), ("month", .month), ("day", .day), ("hour", .hour), ("minute", .minute), ("second", .second),
    ("weekday", .weekday),
  ]

  /// The zone the components are matched in: theirs, else their calendar's.
  var matchingTimeZone: TimeZone? { dateComponents.timeZone ?? dateComponents.calendar?.timeZone }

  /// For a pending request, the daemon's next date; otherwise the next match after now
  /// in the components' calendar (Gregorian when none) and zone.
  public func nextTriggerDate() -> Date? {
    if let scheduledDate { return scheduledDate }
    var calendar = dateComponents.calendar ?? Calendar(identifier: .gregorian)
    if let zone = matchingTimeZone { calendar.timeZone = zone }
    var matching = DateComponents()
    for (_, component) in Self.fields {
      if let v = dateComponents.value(for: component), v != NSDateComponentUndefined {
        matching.setValue(v, for: component)
      }
    }
    return calendar.nextDate(after: Date(), matching: matching, matchingPolicy: .nextTime)
  }

  /// `{type: "calendar", dateMatching: {year?, month?, day?, hour?, minute?, second?, weekday?}, timeZone?, repeats}`.
  public override var wireValue: JSONValue {
    var matching: [JSONMember] = []
    for (name, component) in Self.fields {
      if let v = dateComponents.value(for: component), v != NSDateComponentUndefined {
        matching.append(JSONMember(name, .int(v)))
      }
    }
    var m: [JSONMember] = [JSONMember("type", .string("calendar")), JSONMember("dateMatching", .object(matching))]
    if let zone = matchingTimeZone { m.append(JSONMember("timeZone", .string(zone.identifier))) }
    m.append(JSONMember("repeats", .bool(repeats)))
    return .object(m)
  }

  convenience init(wireValue v: JSONValue) {
    var c = DateComponents()
    for (name, component) in Self.fields {
      if let n = v["dateMatching"]?[name]?.intValue { c.setValue(n, for: component) }
    }
    if let zone = v["timeZone"]?.stringValue { c.timeZone = TimeZone(identifier: zone) }
    self.init(dateMatching: c, repeats: v["repeats"]?.boolValue ?? false)
  }
}

/// `UNPushNotificationTrigger`: the trigger of a notification that came from `pushRemote`.
open class UNPushNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
  public override var wireValue: JSONValue { .object(["type": .string("push")]) }
}
