import Foundation

/// A `CalendarTrigger.Components` with the minimum-filling rule applied, matched against
/// local wall-clock time counted as seconds since 1970-01-01T00:00:00 local ("local
/// seconds"), with no time zone involved.
struct CalendarPattern: Sendable, Hashable {
  var year: Int64?
  var month: Int64?
  var day: Int64?
  var weekday: Int64?
  /// The accepted hours, minutes and seconds, ascending.
  var hours: [Int64]
  var minutes: [Int64]
  var seconds: [Int64]
  /// True when every hour of the day matches: the trigger then fires in both passes of
  /// a repeated (fall-back) hour.
  var hourIsFree: Bool

  static let firstDay = CivilDate.days(year: 1, month: 1, day: 1)
  /// The day after 9999-12-31: nothing matches from here on.
  static let endDay = CivilDate.days(year: 10_000, month: 1, day: 1)

  init(_ c: CalendarTrigger.Components) {
    // The largest specified unit: 0 year, 1 month, 2 day or weekday, 3 hour, 4 minute,
    // 5 second.  Unspecified units smaller than it take their minimum; larger ones are free.
    let largest =
      c.year != nil
      ? 0
      : c.month != nil
        ? 1
        : (c.day != nil || c.weekday != nil)
          ? 2
          : c.hour != nil ? 3 : c.minute != nil ? 4 : 5
    year = c.year.map(Int64.init)
    month = c.month.map(Int64.init) ?? (largest < 1 ? 1 : nil)
    day = c.day.map(Int64.init) ?? (c.weekday == nil && largest < 2 ? 1 : nil)
    weekday = c.weekday.map(Int64.init)
    func values(_ v: Int?, unit: Int, count: Int64) -> [Int64] {
      if let v { return [Int64(v)] }
      return unit < largest ? Array(0..<count) : [0]
    }
    hours = values(c.hour, unit: 3, count: 24)
    minutes = values(c.minute, unit: 4, count: 60)
    seconds = values(c.second, unit: 5, count: 60)
    hourIsFree = hours.count == 24
  }

  /// 1 = Sunday ... 7 = Saturday; day 0 (1970-01-01) was a Thursday.
  static func weekday(ofDay d: Int64) -> Int64 { floorMod(d + 4, 7) + 1 }

  /// The first day `>= from` (days since 1970-01-01) whose date matches, before year 10000.
  func firstMatchingDay(from start: Int64) -> Int64? {
    var d = max(start, Self.firstDay)
    // Each step moves to the next candidate allowed by one component; a few hundred steps
    // cover even 29 February on a given weekday (every 28 years).
    for _ in 0..<100_000 {
      guard d < Self.endDay else { return nil }
      let (y, m, dd) = CivilDate.fromDays(d)
      if let year {
        if y > year { return nil }
        if y < year {
          d = CivilDate.days(year: year, month: 1, day: 1)
          continue
        }
      }
      if let month, m != month {
        d = CivilDate.days(year: m < month ? y : y + 1, month: month, day: 1)
        continue
      }
      if let day, dd != day {
        if dd < day, day <= CivilDate.daysInMonth(year: y, month: m) {
          d = CivilDate.days(year: y, month: m, day: day)
        } else {
          d = CivilDate.days(year: y, month: m, day: 1) + CivilDate.daysInMonth(year: y, month: m)
        }
        continue
      }
      if let weekday {
        let w = Self.weekday(ofDay: d)
        if w != weekday {
          d += floorMod(weekday - w, 7)
          continue
        }
      }
      return d
    }
    return nil
  }

  /// The first matching time of day `>= t` seconds after midnight.
  func firstTimeOfDay(from t: Int64) -> Int64? {
    let (h0, m0, s0) = (t / 3600, t / 60 % 60, t % 60)
    for h in hours where h >= h0 {
      if h > h0 { return h * 3600 + minutes[0] * 60 + seconds[0] }
      for m in minutes where m >= m0 {
        if m > m0 { return h * 3600 + m * 60 + seconds[0] }
        if let s = seconds.first(where: { $0 >= s0 }) { return h * 3600 + m * 60 + s }
      }
    }
    return nil
  }

  /// The first matching local second `>= local`.
  func firstLocal(from local: Int64) -> Int64? {
    let d = floorDiv(local, 86_400)
    guard let first = firstMatchingDay(from: d) else { return nil }
    if first == d, let t = firstTimeOfDay(from: local - d * 86_400) { return d * 86_400 + t }
    guard let next = first == d ? firstMatchingDay(from: d + 1) : first else { return nil }
    return next * 86_400 + hours[0] * 3600 + minutes[0] * 60 + seconds[0]
  }

  /// `year 2026, month 2, day 29`: the date components as given, for error messages.
  func describe(_ c: CalendarTrigger.Components) -> String {
    var parts: [String] = []
    if let v = c.year { parts.append("year \(v)") }
    if let v = c.month { parts.append("month \(v)") }
    if let v = c.day { parts.append("day \(v)") }
    if let v = c.weekday { parts.append("weekday \(v)") }
    return parts.joined(separator: ", ")
  }
}

/// Maps local seconds to instants in one zone, from `TimeZone.secondsFromGMT(for:)`.
///
/// Assumes at most one offset change within 36 hours of any instant, as in all current
/// zones; around two closer changes a skipped or repeated time may resolve to either side.
struct ZoneResolver {
  let zone: TimeZone

  /// Wider than any UTC offset, so that the offsets at `local ± window` are those in
  /// effect before and after any transition that affects `local`.
  static let window: Int64 = 18 * 3600

  func offset(_ t: Int64) -> Int64 {
    Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
  }

  /// The instants (seconds) at which the wall clock reads `local`: the first, and the
  /// second for a repeated time.  A skipped time is read with the offset before the
  /// gap, which lands the gap's length past it on the new wall clock.
  func instants(ofLocal local: Int64) -> (first: Int64, second: Int64?) {
    let before = offset(local - Self.window)
    let after = offset(local + Self.window)
    if before == after, offset(local - before) == before { return (local - before, nil) }
    var valid: [Int64] = []
    for o in [before, after, offset(local - before), offset(local - after)] where offset(local - o) == o {
      if !valid.contains(local - o) { valid.append(local - o) }
    }
    valid.sort()
    guard let first = valid.first else { return (local - before, nil) }
    return (first, valid.count > 1 ? valid.last : nil)
  }

  /// The first instant strictly after `instant` at which `pattern` matches, in whole seconds.
  func next(after instant: Instant, pattern: CalendarPattern) -> Instant? {
    // Candidates are whole seconds, so "strictly after" means ">= the next whole second".
    let lowest = CalendarPattern.firstDay * 86_400 - 86_400
    let highest = CalendarPattern.endDay * 86_400 + 86_400
    let target = max(floorDiv(instant.milliseconds, 1000) + 1, lowest)
    guard target < highest else { return nil }
    // An instant at or after `target` is read on a wall clock at least this far along.
    let span: Int64 = 2 * Self.window
    var local = target + min(offset(target - 1), offset(target), offset(target + span))
    var best: Int64?
    var stop = Int64.max
    while let l = pattern.firstLocal(from: local), l <= stop {
      let (first, second) = instants(ofLocal: l)
      for c in [first, pattern.hourIsFree ? second : nil] {
        guard let c, c >= target, c < (best ?? .max) else { continue }
        best = c
        // A later wall-clock time can only map before `c` through a larger offset.
        stop = c + max(offset(c - span), offset(c))
      }
      local = l + 1
    }
    return best.map { Instant(milliseconds: $0 * 1000) }
  }
}

@inline(__always) private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
  let q = a / b
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

@inline(__always) private func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
