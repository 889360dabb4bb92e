import Foundation

/// Where the center reads the time.  The daemon owns exactly one clock; the center never
/// asks the operating system for the time behind its back, which is what makes the
/// manual clock (scenarios, tests) deterministic.
public protocol Clock: AnyObject {
  var now: Instant { get }
  /// True when `advance` may move this clock (the manual clock).
  var isManual: Bool { get }
  /// Sets the time (manual clock only; the center calls it while firing in date order).
  func set(_ instant: Instant)
}

/// The system's real-time clock.
public final class SystemClock: Clock {
  public init() {}

  public var now: Instant {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Instant(milliseconds: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
  }

  public var isManual: Bool { false }
  public func set(_ instant: Instant) {}
}

/// A clock that only moves when told to: `advanceClock`, scenarios and unit tests.
public final class ManualClock: Clock {
  // Stored properties are `@exclusivity(unchecked)`: the loop thread alone touches a manual clock,
  // so the run-time exclusivity checks have nothing to catch, and they cost every request
  // (BENCHMARKS.md, "Exclusivity checks").

  @exclusivity(unchecked) public private(set) var now: Instant

  public init(_ start: Instant) { now = start }

  public var isManual: Bool { true }
  public func set(_ instant: Instant) { now = instant }
}
