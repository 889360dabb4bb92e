import UNModel

/// One logfmt line built straight into bytes: `level=info event=fired app=a id=n1`.  At
/// the default level the loop logs a line per event (every `scheduleLocal`), so lines
/// are written without intermediate strings, tuples or interpolation.
public struct LogLine {
  public private(set) var bytes: [UInt8] = []

  public init(_ at: LogLevel, _ event: String, journal: Bool) {
    bytes.reserveCapacity(128)
    if journal {
      bytes.append(UInt8(ascii: "<"))
      appendDigits(UInt64(at.syslogPriority))
      bytes.append(UInt8(ascii: ">"))
    }
    bytes.append(contentsOf: "level=".utf8)
    bytes.append(contentsOf: at.rawValue.utf8)
    bytes.append(contentsOf: " event=".utf8)
    bytes.append(contentsOf: event.utf8)
  }

  /// ` key=value`, the value quoted when it is empty or has spaces, quotes, `=` or
  /// anything outside printable ASCII (`\"`, `\\` and `\n` escaped inside the quotes).
  public mutating func field(_ key: String, _ value: String) {
    self.key(key)
    var value = value
    value.withUTF8 { utf8 in
      let plain = !utf8.isEmpty && utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f && $0 != 0x22 && $0 != 0x3d }
      guard !plain else {
        bytes.append(contentsOf: utf8)
        return
      }
      bytes.append(0x22)
      for byte in utf8 {
        switch byte {
        case 0x22: bytes.append(contentsOf: [0x5c, 0x22])
        case 0x5c: bytes.append(contentsOf: [0x5c, 0x5c])
        case 0x0a: bytes.append(contentsOf: [0x5c, 0x6e])
        default: bytes.append(byte)
        }
      }
      bytes.append(0x22)
    }
  }

  public mutating func field(_ key: String, _ value: Int) {
    self.key(key)
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    appendDigits(UInt64(value.magnitude))
  }

  public mutating func field(_ key: String, _ value: UInt64) {
    self.key(key)
    appendDigits(value)
  }

  public mutating func field(_ key: String, _ value: Bool) {
    self.key(key)
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  public mutating func field(_ key: String, _ date: Instant) {
    self.key(key)
    date.appendRFC3339(to: &bytes)
  }

  /// The line's end: call once, last.
  mutating func finish() { bytes.append(0x0a) }

  private mutating func key(_ key: String) {
    bytes.append(0x20)
    bytes.append(contentsOf: key.utf8)
    bytes.append(UInt8(ascii: "="))
  }

  private mutating func appendDigits(_ value: UInt64) {
    var count = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      count += 1
    }
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: count))
    rest = value
    for k in stride(from: start + count - 1, through: start, by: -1) {
      bytes[k] = UInt8(truncatingIfNeeded: 48 + rest % 10)
      rest /= 10
    }
  }
}
