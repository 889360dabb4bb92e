import UNModel

/// One logfmt line built straight into bytes: `level=info event=fired app=a id=n1`.  At
/// the default level the loop logs a line per event (every `scheduleLocal`), so lines
/// are written without intermediate strings, tuples or interpolation, into a buffer of
/// their own with plain copies: appending to an `[UInt8]` piece by piece (a uniqueness
/// and capacity check and a generic copy per piece) cost thousands of instructions a
/// line.  Not copyable, so the buffer has exactly one owner and needs no reference count.
public struct LogLine: ~Copyable {
  private var start: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity = 192

  /// The line so far.
  public var bytes: [UInt8] { withBytes { Array($0) } }

  public init(_ at: LogLevel, _ event: String, journal: Bool) {
    start = .allocate(capacity: capacity)
    if journal {
      append(byte: UInt8(ascii: "<"))
      appendDigits(UInt64(at.syslogPriority))
      append(byte: UInt8(ascii: ">"))
    }
    append(at.linePrefix)
    append(event)
  }

  /// ` key=value`, the value quoted when it is empty or has spaces, quotes, `=` or
  /// anything outside printable ASCII (`\"`, `\\` and `\n` escaped inside the quotes).
  /// Keys are literals: they are copied as they are, with no check.
  public mutating func field(_ key: StaticString, _ value: String) {
    self.key(key)
    append(quoting: value)
  }

  /// The same with a key known only at run time (the fields of `Log.emit`).
  public mutating func field(named key: String, _ value: String) {
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
    date.withRFC3339 { append($0) }
  }

  /// The line's end: call once, last.
  mutating func finish() { append(byte: 0x0a) }

  deinit { start.deallocate() }

  /// Calls `body` with the bytes written so far.
  func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    body(UnsafeBufferPointer(start: start, count: count))
  }

  private mutating func key(_ key: StaticString) {
    append(byte: 0x20)
    append(key)
    append(byte: UInt8(ascii: "="))
  }

  // MARK: The buffer

  /// Room for `n` more bytes: a pointer to where they go.
  private mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
    if count + n > capacity {
      capacity = max(capacity * 2, count + n)
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
      grown.update(from: start, count: count)
      start.deallocate()
      start = grown
    }
    defer { count += n }
    return start + count
  }

  private mutating func append(byte: UInt8) { reserve(1).pointee = byte }

  private mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    UnsafeMutableRawPointer(reserve(bytes.count)).copyMemory(from: source, byteCount: bytes.count)
  }

  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(bytes)) }

  private mutating func append(_ text: StaticString) {
    append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private mutating func append(_ text: String) {
    Self.withUTF8(of: text) { append($0) }
  }

  private mutating func append(quoting value: String) {
    Self.withUTF8(of: value) { utf8 in
      var plain = !utf8.isEmpty
      for byte in utf8 where byte <= 0x20 || byte >= 0x7f || byte == 0x22 || byte == 0x3d {
        plain = false
        break
      }
      guard !plain else { return append(utf8) }
      append(byte: 0x22)
      for byte in utf8 {
        switch byte {
        case 0x22, 0x5c:
          append(byte: 0x5c)
          append(byte: byte)
        case 0x0a:
          append(byte: 0x5c)
          append(byte: 0x6e)
        default:
          append(byte: byte)
        }
      }
      append(byte: 0x22)
    }
  }

  /// A string's UTF-8 without copying it when it is stored contiguously (every string
  /// longer than 15 bytes); small strings are copied to the stack.
  private static func withUTF8(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    if text.utf8.withContiguousStorageIfAvailable(body) != nil { return }
    var copy = text
    copy.withUTF8(body)
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
