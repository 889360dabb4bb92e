import Foundation

/// `UNCalendarNotificationTrigger`: fires when the local date-time in one time zone
/// matches every given component.
///
/// Matching is modelled on `Calendar.nextDate(after:matching:matchingPolicy: .nextTime,
/// repeatedTimePolicy: .first)` in the proleptic Gregorian calendar, with these rules:
///
/// - Unspecified components smaller than the largest specified one take their minimum;
///   larger ones are free.  `{hour: 9}` is 09:00:00 every day, `{minute: 30}` is hh:30:00
///   every hour, `{month: 3}` is March 1 00:00:00, `{month: 3, hour: 9}` is March 1
///   09:00:00, `{year: 2027, hour: 9}` is 2027-01-01 09:00:00.  A weekday fills the day's
///   place: `{weekday: 2, hour: 8}` is Mondays 08:00:00, `{month: 3, weekday: 2}` every
///   Monday of March at 00:00:00.
/// - A date that a year does not have is skipped, not moved: `{month: 2, day: 29}` fires
///   in leap years only, `{day: 31}` in months of 31 days only.
/// - A local time that does not exist (a spring-forward gap) is read with the offset in
///   effect before the gap, so it fires the gap's length later on the wall clock: 02:30
///   on a day that jumps from 02:00 to 03:00 fires at 03:30.
/// - A local time that occurs twice (a fall-back overlap) fires at its first occurrence
///   only, so a daily trigger fires once that day.  When the hour is free (`{minute: 30}`,
///   `{second: 0}`) the repeated hour is a real hour of its own and fires in both passes.
/// - Fire dates are whole seconds.
///
/// Never-matching components: values out of range, and month/day pairs that no year has
/// (`{month: 4, day: 31}`, `{month: 2, day: 30}`), are refused for every trigger.  A
/// repeating trigger must also match at least one date (so `{year: 2026, month: 2,
/// day: 29}` is refused when repeating).  A one-shot trigger whose only match is in the
/// past, or that names a date its year does not have (`2026-02-29`), is accepted:
/// `nextDate(after:)` is `nil`, and the center reports it as not scheduled.
public struct CalendarTrigger: Sendable, Hashable {
  /// The components to match; `nil` means "not specified".
  public struct Components: Sendable, Hashable {
    public var year: Int?
    public var month: Int?
    public var day: Int?
    public var hour: Int?
    public var minute: Int?
    public var second: Int?
    /// 1 = Sunday ... 7 = Saturday, as `DateComponents.weekday`.
    public var weekday: Int?

    public init(
      year: Int? = nil, month: Int? = nil, day: Int? = nil, hour: Int? = nil, minute: Int? = nil,
      second: Int? = nil, weekday: Int? = nil
    ) {
      self.year = year
      self.month = month
      self.day = day
      self.hour = hour
      self.minute = minute
      self.second = second
      self.weekday = weekday
    }

    public var isEmpty: Bool {
      year == nil && month == nil && day == nil && hour == nil && minute == nil && second == nil
        && weekday == nil
    }
  }

  /// The valid range of each component, in the order they are validated.
  public static let ranges: [(name: String, range: ClosedRange<Int>)] = [
    ("year", 1...9999), ("month", 1...12), ("day", 1...31), ("hour", 0...23),
    ("minute", 0...59), ("second", 0...59), ("weekday", 1...7),
  ]

  public let dateMatching: Components
  /// The IANA zone the components are read in: as given, or the daemon's zone at creation.
  public let timeZoneIdentifier: String
  public let repeats: Bool

  let zone: TimeZone
  let pattern: CalendarPattern

  /// Validates the components and the zone.  `timeZone` is an IANA name; `nil` means
  /// `defaultTimeZone` (the daemon's zone), resolved once here so the trigger does not
  /// change if the daemon's zone does.
  public init(
    dateMatching: Components, timeZone: String?, repeats: Bool,
    defaultTimeZone: @autoclosure () -> TimeZone = TimeZone.current
  ) throws(UNError) {
    guard !dateMatching.isEmpty else {
      throw .invalidTrigger("trigger.dateMatching: at least one component is required")
    }
    let given = [
      dateMatching.year, dateMatching.month, dateMatching.day, dateMatching.hour, dateMatching.minute,
      dateMatching.second, dateMatching.weekday,
    ]
    for ((name, range), value) in zip(Self.ranges, given) {
      if let v = value, !range.contains(v) {
        throw .invalidTrigger("trigger.dateMatching.\(name): \(v) is out of range \(range)")
      }
    }
    if let month = dateMatching.month, let day = dateMatching.day {
      let longest = Int(CivilDate.daysInMonth(year: 2000, month: Int64(month)))
      if day > longest {
        throw .invalidTrigger(
          "trigger.dateMatching: day \(day) never occurs in month \(month), which has at most \(longest) days")
      }
    }
    let zone: TimeZone
    let identifier: String
    if let name = timeZone {
      // Foundation reads the name as a C string: "UTC\u{0}x" would be UTC.
      guard !name.utf8.contains(0) else {
        throw .invalidParams(field: "trigger.timeZone", problem: "an identifier must not contain U+0000")
      }
      guard let z = TimeZone(identifier: name) else {
        throw .invalidParams(field: "trigger.timeZone", problem: "'\(name)' is not a known IANA time zone")
      }
      zone = z
      identifier = name
    } else {
      zone = defaultTimeZone()
      identifier = zone.identifier
    }
    let pattern = CalendarPattern(dateMatching)
    if repeats, pattern.firstMatchingDay(from: CivilDate.days(year: 1, month: 1, day: 1)) == nil {
      throw .invalidTrigger("trigger.dateMatching: no date matches \(pattern.describe(dateMatching))")
    }
    self.dateMatching = dateMatching
    self.timeZoneIdentifier = identifier
    self.repeats = repeats
    self.zone = zone
    self.pattern = pattern
  }

  public static func == (a: CalendarTrigger, b: CalendarTrigger) -> Bool {
    a.dateMatching == b.dateMatching && a.timeZoneIdentifier == b.timeZoneIdentifier && a.repeats == b.repeats
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(dateMatching)
    hasher.combine(timeZoneIdentifier)
    hasher.combine(repeats)
  }

  /// The first instant strictly after `instant` whose local date-time matches, or `nil`
  /// if there is none up to the end of year 9999.  Always whole seconds.
  public func nextDate(after instant: Instant) -> Instant? {
    ZoneResolver(zone: zone).next(after: instant, pattern: pattern)
  }

  /// The next `count` fire dates, strictly increasing; fewer if the trigger stops matching,
  /// and at most one for a one-shot trigger.
  public func upcomingDates(after instant: Instant, count: Int) -> [Instant] {
    var out: [Instant] = []
    let limit = repeats ? count : min(count, 1)
    guard limit > 0 else { return out }
    out.reserveCapacity(limit)
    var cursor = instant
    while out.count < limit, let next = nextDate(after: cursor) {
      out.append(next)
      cursor = next
    }
    return out
  }
}
