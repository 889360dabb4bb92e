/// What makes a request fire.  `nil` where a trigger is expected means "deliver now".
public enum Trigger: Sendable, Hashable {
  case timeInterval(TimeIntervalTrigger)
  /// Boxed: a calendar trigger is large, and every pending request carries a trigger.
  indirect case calendar(CalendarTrigger)
  /// Set by `pushRemote` only: delivered at once.
  case push

  public var repeats: Bool {
    switch self {
    case .timeInterval(let t): t.repeats
    case .calendar(let c): c.repeats
    case .push: false
    }
  }

  /// The first fire date strictly after `instant` for a request added at `anchor`; nil
  /// when it can never fire again (a calendar date in the past, or a push).
  public func nextDate(anchor: Instant, after instant: Instant) -> Instant? {
    switch self {
    case .timeInterval(let t): t.nextDate(anchor: anchor, after: instant)
    case .calendar(let c): c.nextDate(after: instant)
    case .push: nil
    }
  }

  /// The next `count` fire dates after `instant` (one at most for a one-shot trigger).
  public func upcomingDates(anchor: Instant, after instant: Instant, first: Instant, count: Int) -> [Instant] {
    guard count > 0 else { return [] }
    switch self {
    case .timeInterval(let t):
      guard t.repeats else { return [first] }
      return (0..<count).map { first.adding(milliseconds: Int64($0) * t.milliseconds) }
    case .calendar(let c):
      return [first] + (c.repeats ? c.upcomingDates(after: first, count: count - 1) : [])
    case .push:
      return []
    }
  }
}

/// `UNTimeIntervalNotificationTrigger`: fires at `added + k * interval`, k = 1, 2, ...
public struct TimeIntervalTrigger: Sendable, Hashable {
  /// The interval as the client gave it, in seconds (echoed back as given).
  public var seconds: Double
  public var repeats: Bool
  /// The interval rounded once to whole milliseconds; all date arithmetic uses this.
  public var milliseconds: Int64

  /// The longest accepted interval: 100 years, far beyond any real use, so that date
  /// arithmetic can never overflow.
  public static let maxSeconds = 100.0 * 366 * 86_400

  /// Validates as `UNTimeIntervalNotificationTrigger` does, with Apple's reason texts.
  public init(seconds: Double, repeats: Bool) throws(UNError) {
    guard seconds.isFinite, seconds > 0 else { throw .invalidTrigger("time interval must be greater than 0") }
    guard !repeats || seconds >= 60 else { throw .invalidTrigger("time interval must be at least 60 if repeating") }
    guard seconds <= Self.maxSeconds else {
      throw .invalidParams(field: "trigger.timeInterval", problem: "must be at most \(Int(Self.maxSeconds)) seconds")
    }
    self.init(unchecked: seconds, repeats: repeats)
  }

  /// A trigger whose seconds were validated before (a pending record rebuilding its own).
  init(unchecked seconds: Double, repeats: Bool) {
    self.seconds = seconds
    self.repeats = repeats
    self.milliseconds = Self.milliseconds(seconds)
  }

  /// The interval in whole milliseconds, at least one.
  static func milliseconds(_ seconds: Double) -> Int64 { max(1, Int64((seconds * 1000).rounded())) }

  /// The first slot `anchor + k * interval` strictly after `instant` (k >= 1): no drift,
  /// whatever the instant at which the previous firing was handled.
  public func nextDate(anchor: Instant, after instant: Instant) -> Instant {
    let elapsed = instant.milliseconds - anchor.milliseconds
    let k = elapsed < 0 ? 1 : elapsed / milliseconds + 1
    return anchor.adding(milliseconds: k * milliseconds)
  }
}
