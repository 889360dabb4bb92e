#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Splits a byte stream into JSON-RPC messages, whatever the chunk boundaries.
///
/// A pure state machine in the SwiftNIO "need more data" style: feed it each chunk read
/// from the socket and it reports every complete message, keeping only an unfinished
/// one.  Splitting the same stream into different chunks yields the same events.
///
/// The framing is chosen from the connection's first non-whitespace byte: an ASCII
/// letter starts an LSP-style header (`Content-Length: …`), anything else (normally `{`
/// or `[`) means newline-delimited JSON.  Whitespace before that byte is skipped.
///
/// Memory stays bounded by the limit: a line or body longer than `maxMessageBytes` is
/// reported once as `.oversized` and skipped as it streams past, never buffered, so a
/// hostile client cannot make the daemon hold more than about `maxMessageBytes` plus
/// one header block (8 KiB) per connection.
public struct Framer: Sendable {
  /// The longest header block accepted in Content-Length mode.
  public static let maxHeaderBytes = 8192

  public let maxMessageBytes: Int
  /// The connection's framing, once its first non-whitespace byte has been seen.
  public private(set) var framing: Framing?

  enum State: Sendable {
    /// Newline mode: collecting a line in `buffer` (empty when at a line start).
    case line
    /// Newline mode: discarding the rest of an oversized line.
    case skipLine
    /// Content-Length mode: reading header lines; the current line is in `buffer`.
    case headers(length: Int?, headerBytes: Int, sawHeader: Bool)
    /// Content-Length mode: collecting a body; the part already read is in `buffer`.
    case body(length: Int)
    /// Content-Length mode: discarding this many more bytes of an oversized body.
    case skipBody(remaining: Int)
    /// After a fatal error: everything is ignored.
    case failed
  }

  var state: State = .line
  /// Unfinished data carried over between chunks; never larger than about the limit.
  var buffer: [UInt8] = []

  public init(maxMessageBytes: Int) {
    self.maxMessageBytes = max(0, maxMessageBytes)
  }

  /// Consumes `chunk`, reporting each complete message (and each problem) in order.
  public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ onEvent: (FrameEvent) -> Void) {
    guard let address = chunk.baseAddress, chunk.count > 0 else { return }
    let bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: chunk.count)
    var position = 0
    if framing == nil {
      while position < bytes.count, Framer.isWhitespace(bytes[position]) { position += 1 }
      guard let detected = Framer.detectFraming(UnsafeRawBufferPointer(rebasing: chunk[position...])) else { return }
      framing = detected
      state = detected == .contentLength ? .headers(length: nil, headerBytes: 0, sawHeader: false) : .line
    }
    if framing == .newlineDelimited {
      feedLines(bytes, from: position, onEvent)
    } else {
      feedContentLength(bytes, from: position, onEvent)
    }
  }

  /// Convenience for arrays.
  public mutating func feed(_ chunk: [UInt8], _ onEvent: (FrameEvent) -> Void) {
    chunk.withUnsafeBytes { feed($0, onEvent) }
  }

  // MARK: Newline-delimited

  private mutating func feedLines(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ onEvent: (FrameEvent) -> Void
  ) {
    var position = start
    while position < bytes.count {
      // memchr: the C library's vectorised search, many bytes per step.
      let base = UnsafeRawPointer(bytes.baseAddress!)
      var newline = bytes.count
      if let hit = memchr(base + position, 0x0A, bytes.count - position) {
        newline = UnsafeRawPointer(hit) - base
      }
      let found = newline < bytes.count
      if case .skipLine = state {
        guard found else { return }
        state = .line
        position = newline + 1
        continue
      }
      let segment = UnsafeBufferPointer(rebasing: bytes[position..<newline])
      if buffer.count + segment.count > maxMessageBytes {
        releaseBuffer()
        onEvent(.oversized(limit: maxMessageBytes))
        guard found else {
          state = .skipLine
          return
        }
      } else if !found {
        buffer.append(contentsOf: segment)
        return
      } else if buffer.isEmpty {
        if !Framer.isBlank(segment) { onEvent(.message(UnsafeRawBufferPointer(segment))) }
      } else {
        buffer.append(contentsOf: segment)
        buffer.withUnsafeBufferPointer { line in
          if !Framer.isBlank(line) { onEvent(.message(UnsafeRawBufferPointer(line))) }
        }
        releaseBuffer()
      }
      position = newline + 1
    }
  }

  // MARK: Helpers

  /// Empties the buffer, keeping its storage only while it is small.
  mutating func releaseBuffer() {
    buffer.removeAll(keepingCapacity: buffer.capacity <= 65_536)
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes where !isWhitespace(byte) { return false }
    return true
  }

  // MARK: Writing frames

  /// Appends `payload` framed for the peer: `payload\n`, or
  /// `Content-Length: N\r\n\r\n` + payload.
  public static func appendFrame(_ payload: UnsafeRawBufferPointer, framing: Framing, to out: inout [UInt8]) {
    switch framing {
    case .newlineDelimited:
      out.append(contentsOf: payload)
      out.append(0x0A)
    case .contentLength:
      JSONWriter.appendASCII("Content-Length: ", to: &out)
      JSONWriter.appendRaw(String(payload.count), to: &out)
      JSONWriter.appendASCII("\r\n\r\n", to: &out)
      out.append(contentsOf: payload)
    }
  }

  /// Appends an array payload framed for the peer.
  public static func appendFrame(_ payload: [UInt8], framing: Framing, to out: inout [UInt8]) {
    payload.withUnsafeBytes { appendFrame($0, framing: framing, to: &out) }
  }
}
