/// Content-Length (LSP-style) framing for `Framer`.
///
/// A message is a header block of `Name: value` lines, a blank line, and exactly
/// `Content-Length` bytes of body.  Header names are case-insensitive, headers other
/// than Content-Length (such as Content-Type) are ignored, and lines may end in `\r\n`
/// or a bare `\n`.  Blank lines between messages are skipped.  A broken header block is
/// fatal: without a trustworthy length there is no way to find the next message.
extension Framer {
  /// What one complete header line says.
  private enum HeaderLine {
    case blank
    case length(Int)
    case other
    case invalid(String)
  }

  mutating func feedContentLength(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ onEvent: (FrameEvent) -> Void
  ) {
    var position = start
    while position < bytes.count {
      switch state {
      case .failed, .line, .skipLine:
        return
      case .skipBody(let remaining):
        let take = min(remaining, bytes.count - position)
        position += take
        state =
          remaining == take
          ? .headers(length: nil, headerBytes: 0, sawHeader: false) : .skipBody(remaining: remaining - take)
      case .body(let length):
        let take = min(length - buffer.count, bytes.count - position)
        let part = UnsafeBufferPointer(rebasing: bytes[position..<position + take])
        position += take
        if buffer.isEmpty, take == length {
          onEvent(.message(UnsafeRawBufferPointer(part)))
        } else {
          buffer.append(contentsOf: part)
          guard buffer.count == length else { return }
          buffer.withUnsafeBytes { onEvent(.message($0)) }
          releaseBuffer()
        }
        state = .headers(length: nil, headerBytes: 0, sawHeader: false)
      case .headers(let length, let headerBytes, let sawHeader):
        var newline = position
        while newline < bytes.count, bytes[newline] != 0x0A { newline += 1 }
        let found = newline < bytes.count
        let end = found ? newline + 1 : bytes.count
        let total = headerBytes + (end - position)
        guard total <= Framer.maxHeaderBytes else {
          return fail("header block larger than \(Framer.maxHeaderBytes) bytes", onEvent)
        }
        let segment = UnsafeBufferPointer(rebasing: bytes[position..<newline])
        position = end
        guard found else {
          buffer.append(contentsOf: segment)
          state = .headers(length: length, headerBytes: total, sawHeader: sawHeader)
          return
        }
        let line: HeaderLine
        if buffer.isEmpty {
          line = Framer.headerLine(segment, sawHeader: sawHeader)
        } else {
          buffer.append(contentsOf: segment)
          line = buffer.withUnsafeBufferPointer { Framer.headerLine($0, sawHeader: sawHeader) }
          releaseBuffer()
        }
        switch line {
        case .invalid(let reason):
          return fail(reason, onEvent)
        case .other:
          state = .headers(length: length, headerBytes: total, sawHeader: true)
        case .length(let value):
          if let length, length != value {
            return fail("conflicting Content-Length headers (\(length) and \(value))", onEvent)
          }
          state = .headers(length: value, headerBytes: total, sawHeader: true)
        case .blank:
          guard sawHeader else {
            state = .headers(length: nil, headerBytes: 0, sawHeader: false)
            continue
          }
          guard let length else { return fail("missing Content-Length header", onEvent) }
          startBody(length: length, at: bytes, position, onEvent)
        }
      }
    }
  }

  /// Moves on after a complete header block announcing `length` bytes.
  private mutating func startBody(
    length: Int, at bytes: UnsafeBufferPointer<UInt8>, _ position: Int, _ onEvent: (FrameEvent) -> Void
  ) {
    if length > maxMessageBytes {
      onEvent(.oversized(limit: maxMessageBytes))
      state = .skipBody(remaining: length)
    } else if length == 0 {
      onEvent(.message(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[position..<position])))
      state = .headers(length: nil, headerBytes: 0, sawHeader: false)
    } else {
      state = .body(length: length)
    }
  }

  private mutating func fail(_ reason: String, _ onEvent: (FrameEvent) -> Void) {
    state = .failed
    buffer = []
    onEvent(.malformed(reason: reason, fatal: true))
  }

  /// Classifies one header line (without its `\n`).
  private static func headerLine(_ raw: UnsafeBufferPointer<UInt8>, sawHeader: Bool) -> HeaderLine {
    var line = raw[...]
    if line.last == 0x0D { line = line.dropLast() }
    if line.isEmpty { return .blank }
    if !sawHeader, line.allSatisfy(isWhitespace) { return .blank }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      return .invalid("malformed header line '\(preview(line))'")
    }
    let name = trimmed(line[..<colon])
    guard name.count == 14, zip(name, "content-length".utf8).allSatisfy({ lowercased($0) == $1 }) else {
      return .other
    }
    let value = trimmed(line[(colon + 1)...])
    guard !value.isEmpty, value.count <= 18,
      value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return .invalid("invalid Content-Length '\(preview(value))'") }
    return .length(value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
  }

  private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
    var result = bytes
    while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
    while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
    return result
  }

  /// At most 40 bytes of a header, for error messages.
  private static func preview(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
    String(decoding: bytes.prefix(40), as: UTF8.self)
  }
}
