/// A point in time: milliseconds since the Unix epoch, UTC.
///
/// The protocol's dates are RFC 3339 with millisecond precision, so the model counts
/// in whole milliseconds; intervals given in (possibly fractional) seconds are rounded
/// to the nearest millisecond once, when a trigger is created.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var milliseconds: Int64

  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  public static func < (a: Instant, b: Instant) -> Bool { a.milliseconds < b.milliseconds }

  public func adding(milliseconds delta: Int64) -> Instant {
    let (sum, overflow) = milliseconds.addingReportingOverflow(delta)
    return Instant(milliseconds: overflow ? (delta > 0 ? .max : .min) : sum)
  }

  public var description: String { rfc3339 }

  /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the dates RFC 3339 can write
  /// (four-digit years), the range the daemon's clocks stay in.
  public static let earliestRFC3339 = Instant(milliseconds: -62_167_219_200_000)
  public static let latestRFC3339 = Instant(milliseconds: 253_402_300_799_999)

  /// Whether RFC 3339 can write this date (its year is 0000-9999 in UTC).
  public var isRFC3339: Bool { self >= Self.earliestRFC3339 && self <= Self.latestRFC3339 }
}

extension Instant {
  /// `2026-11-29T18:00:05.000Z`: RFC 3339, UTC, always with milliseconds.
  public var rfc3339: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendRFC3339(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the RFC 3339 text to `out`, digit by digit: dates are in most responses,
  /// and writing them straight into the output avoids building a string each time.
  public func appendRFC3339(to out: inout [UInt8]) {
    withRFC3339 { out.append(contentsOf: $0) }
  }

  /// Calls `body` with the RFC 3339 text, formatted into 24 bytes on the stack: this runs
  /// for every date in every answer and log line.  Not generic: a generic one is not
  /// specialised for callers in other modules, and its `withUnsafeMutableBytes` then ran
  /// unspecialised too, for every date (see BENCHMARKS.md).
  public func withRFC3339(_ body: (UnsafeRawBufferPointer) -> Void) {
    var days = milliseconds / 86_400_000
    var rem = milliseconds % 86_400_000
    if rem < 0 {
      rem += 86_400_000
      days -= 1
    }
    let (y, m, d) = CivilDate.fromDays(days)
    guard (0...9999).contains(y) else {
      return Array(Self.wideYear(y, m, d, rem).utf8).withUnsafeBytes(body)
    }
    var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &text) { buffer in
      // Two digits at a time from a table: a division per digit pair instead of per
      // digit: every listed request has a date (see BENCHMARKS.md).
      let pairs = Self.digitPairs.utf8Start
      func put2(_ value: Int64, at offset: Int) {
        let v = Int(truncatingIfNeeded: value) &* 2
        buffer[offset] = pairs[v]
        buffer[offset &+ 1] = pairs[v &+ 1]
      }
      let seconds = rem / 1000
      let milliseconds = rem % 1000
      put2(y / 100, at: 0)
      put2(y % 100, at: 2)
      buffer[4] = 45
      put2(m, at: 5)
      buffer[7] = 45
      put2(d, at: 8)
      buffer[10] = 84
      put2(seconds / 3600, at: 11)
      buffer[13] = 58
      put2(seconds / 60 % 60, at: 14)
      buffer[16] = 58
      put2(seconds % 60, at: 17)
      buffer[19] = 46
      buffer[20] = UInt8(truncatingIfNeeded: 48 + milliseconds / 100)
      put2(milliseconds % 100, at: 21)
      buffer[23] = 90
      body(UnsafeRawBufferPointer(buffer))
    }
  }

  /// "00", "01", … "99": the text of every two-digit number, by twice its value.
  private static let digitPairs: StaticString = """
    0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
    5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
    """

  /// Years outside 0...9999 (never produced by the daemon's own clocks).
  private static func wideYear(_ y: Int64, _ m: Int64, _ d: Int64, _ rem: Int64) -> String {
    let date = pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    let time = pad(rem / 3_600_000, 2) + ":" + pad(rem / 60_000 % 60, 2) + ":" + pad(rem / 1000 % 60, 2)
    return date + "T" + time + "." + pad(rem % 1000, 3) + "Z"
  }

  /// Parses an RFC 3339 date-time: `2026-01-01T08:00:00Z`, with optional fractional
  /// seconds (truncated to milliseconds) and a `Z` or `±hh:mm` offset.  Lowercase `t`/`z`
  /// and a space separator are accepted as RFC 3339 §5.6 allows.
  public init?(rfc3339 text: String) {
    let b = Array(text.utf8)
    func num(_ i: Int, _ n: Int) -> Int64? {
      guard i + n <= b.count else { return nil }
      var v: Int64 = 0
      for k in i..<(i + n) {
        guard b[k] >= 48, b[k] <= 57 else { return nil }
        v = v * 10 + Int64(b[k] - 48)
      }
      return v
    }
    guard b.count >= 20, let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45,
      let d = num(8, 2), [84, 116, 32].contains(b[10]), let h = num(11, 2), b[13] == 58,
      let mi = num(14, 2), b[16] == 58, let s = num(17, 2)
    else { return nil }
    guard (1...12).contains(mo), d >= 1, d <= CivilDate.daysInMonth(year: y, month: mo),
      h <= 23, mi <= 59, s <= 60
    else { return nil }
    var i = 19
    var frac: Int64 = 0
    if i < b.count, b[i] == 46 {
      i += 1
      var digits = 0
      while i < b.count, b[i] >= 48, b[i] <= 57 {
        if digits < 3 { frac = frac * 10 + Int64(b[i] - 48) }
        digits += 1
        i += 1
      }
      guard digits > 0 else { return nil }
      if digits < 3 { for _ in digits..<3 { frac *= 10 } }
    }
    guard i < b.count else { return nil }
    var offset: Int64 = 0
    if b[i] == 90 || b[i] == 122 {
      i += 1
    } else if b[i] == 43 || b[i] == 45, let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == 58,
      let om = num(i + 4, 2), oh <= 23, om <= 59
    {
      offset = (oh * 60 + om) * 60_000 * (b[i] == 45 ? -1 : 1)
      i += 6
    } else {
      return nil
    }
    guard i == b.count else { return nil }
    let days = CivilDate.days(year: y, month: mo, day: d)
    let secs = min(s, 59)  // a leap second is read as :59.999
    let extra: Int64 = s == 60 ? 999 : 0
    self.milliseconds = ((days * 24 + h) * 60 + mi) * 60_000 + secs * 1000 + frac + extra - offset
  }
}

private func pad(_ v: Int64, _ width: Int) -> String {
  let s = String(v)
  return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}

/// Proleptic Gregorian calendar arithmetic (H. Hinnant's days_from_civil algorithms).
public enum CivilDate {
  /// Days since 1970-01-01 for a civil date.
  public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The civil date of a day count since 1970-01-01.
  public static func fromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  public static func isLeap(_ y: Int64) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

  public static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
