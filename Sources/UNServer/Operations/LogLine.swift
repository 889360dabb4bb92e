import UNModel

/// One logfmt line built straight into bytes: `level=info event=fired app=a id=n1`.  At the
/// default level the loop logs a line per event (every `scheduleLocal`), so lines are
/// written without intermediate strings, tuples or interpolation, into a buffer of their
/// own with plain copies: appending to an `[UInt8]` piece by piece (a uniqueness and
/// capacity check and a generic copy per piece) made the line one of the costliest parts of
/// a request (see BENCHMARKS.md).  Not copyable, so the buffer has exactly one owner and
/// needs no reference count.  The loop's event lines reuse one (`restart`), with no
/// allocation per line.
public struct LogLine: ~Copyable {
  private var start: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity = 192
  /// The last date written and its 24 bytes of text: the events of a burst of requests
  /// fall in the same millisecond, and copying the text is cheaper than formatting it.
  private var lastDate: Instant?
  private var lastDateText: (UInt64, UInt64, UInt64) = (0, 0, 0)

  /// The line so far.
  public var bytes: [UInt8] { withBytes { Array($0) } }

  public init(_ at: LogLevel, _ event: String, journal: Bool) {
    start = .allocate(capacity: capacity)
    begin(at, event, journal: journal)
  }

  /// Empties the line and starts a new one in the same buffer.
  public mutating func restart(_ at: LogLevel, _ event: String, journal: Bool) {
    count = 0
    begin(at, event, journal: journal)
  }

  private mutating func begin(_ at: LogLevel, _ event: String, journal: Bool) {
    if journal {
      append(byte: UInt8(ascii: "<"))
      appendDigits(UInt64(at.syslogPriority))
      append(byte: UInt8(ascii: ">"))
    }
    append(at.linePrefix)
    assert(event.isEmpty || Self.isPlainName(event), "event names are plain words: \(event.debugDescription)")
    append(event)
  }

  /// An event name or field name as the code writes them: printable ASCII, no space,
  /// quote or `=` (checked in debug builds: names are literals, never client text).
  static func isPlainName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x3D }
  }

  /// ` key=value`, the value quoted when it is empty or has spaces, quotes, `=` or
  /// anything outside printable ASCII, with its control characters escaped inside the
  /// quotes (`append(quotedBytes:)`): values come from clients.  Keys are literals: they
  /// are copied as they are, with no check.
  public mutating func field(_ key: StaticString, _ value: String) {
    self.key(key)
    append(quoting: value)
  }

  /// The same with a key known only at run time (the fields of `Log.emit`, an event's
  /// field names): a name from the daemon's code, never from a client.
  public mutating func field(named key: String, _ value: String) {
    assert(Self.isPlainName(key), "log field names are plain words: \(key.debugDescription)")
    append(byte: 0x20)
    append(key)
    append(byte: UInt8(ascii: "="))
    append(quoting: value)
  }

  public mutating func field(_ key: StaticString, _ value: Int) {
    self.key(key)
    if value < 0 { append(byte: UInt8(ascii: "-")) }
    appendDigits(UInt64(value.magnitude))
  }

  public mutating func field(_ key: StaticString, _ value: UInt64) {
    self.key(key)
    appendDigits(value)
  }

  public mutating func field(_ key: StaticString, _ value: Bool) {
    self.key(key)
    append(value ? "true" : "false")
  }

  public mutating func field(_ key: StaticString, _ date: Instant) {
    self.key(key)
    if date != lastDate {
      // Kept when it is the usual 24 bytes (years 0-9999); other years are written as
      // they are each time.
      var kept = false
      date.withRFC3339 { text in
        guard text.count == 24 else { return append(text) }
        withUnsafeMutableBytes(of: &lastDateText) { $0.copyMemory(from: text) }
        kept = true
      }
      lastDate = kept ? date : nil
      guard kept else { return }
    }
    withUnsafeBytes(of: lastDateText) { append($0) }
  }

  /// The line's end: call once, last.
  mutating func finish() { append(byte: 0x0a) }

  deinit { start.deallocate() }

  /// Calls `body` with the bytes written so far.
  func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    body(UnsafeBufferPointer(start: start, count: count))
  }

  /// ` key=` in one reservation.
  @inline(__always)
  private mutating func key(_ key: StaticString) {
    let n = key.utf8CodeUnitCount
    let at = reserve(n + 2)
    at.pointee = 0x20
    (at + 1).update(from: key.utf8Start, count: n)
    at[n + 1] = UInt8(ascii: "=")
  }

  // MARK: The buffer
  // Inlined: a line is a dozen small appends, and a call for each cost more than the
  // copies themselves.

  /// Room for `n` more bytes: a pointer to where they go.
  @inline(__always)
  private mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
    if count + n > capacity { grow(to: count + n) }
    defer { count += n }
    return start + count
  }

  @inline(never)
  private mutating func grow(to needed: Int) {
    capacity = max(capacity * 2, needed)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    grown.update(from: start, count: count)
    start.deallocate()
    start = grown
  }

  @inline(__always)
  private mutating func append(byte: UInt8) { reserve(1).pointee = byte }

  @inline(__always)
  private mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    UnsafeMutableRawPointer(reserve(bytes.count)).copyMemory(from: source, byteCount: bytes.count)
  }

  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(bytes)) }

  @inline(__always)
  private mutating func append(_ text: StaticString) {
    append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// A string's UTF-8 copied straight into the buffer, from the string's own storage
  /// (copying it through the collection's iterator cost more than the copy itself).
  @inline(__always)
  private mutating func append(_ text: String) {
    if text.utf8.withContiguousStorageIfAvailable({ append(copying: $0) }) != nil { return }
    var native = text
    native.withUTF8 { append(copying: $0) }
  }

  /// Bytes copied in (`ShortCopy`: nearly every value is short).
  @inline(__always)
  private mutating func append(copying bytes: UnsafeBufferPointer<UInt8>) {
    guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
    ShortCopy.copy(from, bytes.count, to: reserve(bytes.count))
  }

  /// The value is copied in first and checked in place: nearly every value is plain
  /// and stays as copied; the others are taken back out and written quoted.
  private mutating func append(quoting value: String) {
    let before = count
    append(value)
    let n = count - before
    let at = start + before
    if Self.isPlain(at, n) { return }
    count = before
    let utf8 = Array(UnsafeBufferPointer(start: at, count: n))
    utf8.withUnsafeBufferPointer { append(quotedBytes: $0) }
  }

  /// A value in quotes, written so that a line stays one line and a terminal shows it as
  /// text: `"` and `\` get a backslash; newline, carriage return and tab are `\n`, `\r`,
  /// `\t`; every other byte of a control character (C0, DEL, C1), of a Unicode line or
  /// paragraph separator (U+2028, U+2029), of a bidirectional embedding, override or
  /// isolate (U+202A-U+202E, U+2066-U+2069), or of no valid UTF-8 sequence is `\xNN`
  /// (two lowercase hex digits, one escape per byte: U+0085 is `\xc2\x85`).  Other text,
  /// ASCII or not, is copied as it is.  A client chooses its identifiers and texts, and
  /// those reach the log: raw, a carriage return or a line separator would let one forge
  /// a line, and an escape sequence would drive the terminal of whoever reads the log.
  mutating func append(quotedBytes value: UnsafeBufferPointer<UInt8>) {
    append(byte: 0x22)
    var i = 0
    while i < value.count {
      let byte = value[i]
      if byte >= 0x20 && byte < 0x7F {
        if byte == 0x22 || byte == 0x5C { append(byte: 0x5C) }
        append(byte: byte)
        i += 1
        continue
      }
      guard byte >= 0x80 else {
        appendEscaped(control: byte)
        i += 1
        continue
      }
      let length = Self.utf8SequenceLength(value, at: i)
      guard length > 0 else {
        appendHexEscape(byte)
        i += 1
        continue
      }
      let unsafe = Self.isUnsafeSequence(value, at: i, length: length)
      for k in i..<(i + length) {
        if unsafe { appendHexEscape(value[k]) } else { append(byte: value[k]) }
      }
      i += length
    }
    append(byte: 0x22)
  }

  /// A C0 control or DEL.
  private mutating func appendEscaped(control byte: UInt8) {
    switch byte {
    case 0x0A: append("\\n" as StaticString)
    case 0x0D: append("\\r" as StaticString)
    case 0x09: append("\\t" as StaticString)
    default: appendHexEscape(byte)
    }
  }

  /// `\xNN`.
  private mutating func appendHexEscape(_ byte: UInt8) {
    let digits: StaticString = "0123456789abcdef"
    let at = reserve(4)
    at[0] = 0x5C
    at[1] = UInt8(ascii: "x")
    at[2] = digits.utf8Start[Int(byte >> 4)]
    at[3] = digits.utf8Start[Int(byte & 0x0F)]
  }

  /// The length of the well-formed UTF-8 sequence at `i` (2 to 4: its first byte is 0x80
  /// or above), or 0 when the bytes there are not one (the Unicode standard's table of
  /// well-formed sequences: no overlong forms, no surrogates, nothing above U+10FFFF).
  static func utf8SequenceLength(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
    let lead = p[i]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: (length, low) = (3, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: (length, high) = (3, 0x9F)
    case 0xF0: (length, low) = (4, 0x90)
    case 0xF1...0xF3: length = 4
    case 0xF4: (length, high) = (4, 0x8F)
    default: return 0
    }
    guard i + length <= p.count, (low...high).contains(p[i + 1]) else { return 0 }
    for k in (i + 2)..<(i + length) where !(0x80...0xBF).contains(p[k]) { return 0 }
    return length
  }

  /// Whether the well-formed sequence at `i` is a C1 control (U+0080-U+009F), a line or
  /// paragraph separator, or a bidirectional embedding, override or isolate.
  static func isUnsafeSequence(_ p: UnsafeBufferPointer<UInt8>, at i: Int, length: Int) -> Bool {
    switch (p[i], length) {
    case (0xC2, 2): return p[i + 1] <= 0x9F
    case (0xE2, 3):
      return (p[i + 1] == 0x80 && (0xA8...0xAE).contains(p[i + 2]))
        || (p[i + 1] == 0x81 && (0xA6...0xA9).contains(p[i + 2]))
    default: return false
    }
  }

  /// Whether a value is written without quotes: not empty, and no byte is a space or
  /// control (up to 0x20), 0x7f or above, `"` or `=`.  Eight bytes at a time: each test
  /// is the classic "has a byte less than n / equal to 0" word trick, exact as a yes/no.
  static func isPlain(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    guard n > 0 else { return false }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func hasZero(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
    @inline(__always) func special(_ w: UInt64) -> Bool {
      (w &- ones &* 0x21) & ~w & highs != 0 || w & highs != 0 || hasZero(w ^ (ones &* 0x7f))
        || hasZero(w ^ (ones &* 0x22)) || hasZero(w ^ (ones &* 0x3d))
    }
    let raw = UnsafeRawPointer(p)
    var i = 0
    while i + 8 <= n {
      if special(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return false }
      i += 8
    }
    guard i < n else { return true }
    // The last few bytes: the word ending at the last byte (overlapping one already
    // checked), or one at a time in a value shorter than a word.
    if n >= 8 { return !special(raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)) }
    for byte in UnsafeBufferPointer(start: p, count: n)
    where byte <= 0x20 || byte >= 0x7f || byte == 0x22 || byte == 0x3d {
      return false
    }
    return true
  }

  /// Digits into a stack buffer, then one copy.
  private mutating func appendDigits(_ value: UInt64) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
    withUnsafeMutableBytes(of: &digits) { buffer in
      var k = buffer.count
      var rest = value
      repeat {
        k -= 1
        buffer[k] = UInt8(truncatingIfNeeded: 48 + rest % 10)
        rest /= 10
      } while rest > 0
      append(UnsafeRawBufferPointer(rebasing: buffer[k...]))
    }
  }
}

extension LogLevel {
  /// How a line at this level starts, up to its event name.
  fileprivate var linePrefix: StaticString {
    switch self {
    case .debug: "level=debug event="
    case .info: "level=info event="
    case .warn: "level=warn event="
    case .error: "level=error event="
    }
  }
}
