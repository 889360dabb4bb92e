extension Framer {
  /// The peer closed its side: a newline-delimited text still in the buffer is a last
  /// message that only lacked its newline (`printf '{…}' | socat`), so it is delivered.
  /// An unfinished Content-Length body is incomplete and reported as malformed.
  public mutating func finish(_ onEvent: (FrameEvent) -> Void) {
    defer {
      releaseBuffer()
      state = .failed
    }
    switch state {
    case .line where !buffer.isEmpty:
      buffer.withUnsafeBufferPointer { line in
        if !Framer.isBlank(line) { onEvent(.message(UnsafeRawBufferPointer(line))) }
      }
    case .body(let length):
      onEvent(.malformed(reason: "end of stream after \(buffer.count) of \(length) body bytes", fatal: true))
    default:
      break
    }
  }
}
