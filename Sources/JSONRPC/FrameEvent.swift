/// How JSON texts are delimited on a connection.
public enum Framing: Sendable, Hashable {
  /// One JSON text per line, `\n`-terminated (a trailing `\r` is JSON whitespace).
  case newlineDelimited
  /// LSP-style `Content-Length: N` headers, a blank line, then exactly N bytes.
  case contentLength
}

/// What a `Framer` found in the bytes fed to it.
public enum FrameEvent {
  /// One complete message.  The buffer is valid only during the callback: it points
  /// into the fed chunk when the message lies inside it, else into the framer's own
  /// buffer, which is reused afterwards.
  case message(UnsafeRawBufferPointer)
  /// A message longer than the limit was skipped without being buffered; the framer
  /// carries on with the next one.
  case oversized(limit: Int)
  /// The stream is broken.  When `fatal`, the framer cannot find the next message
  /// boundary and ignores all further input: reply and close the connection.  Only
  /// Content-Length headers can break a stream this way; in newline mode every line is
  /// a message, and a bad one is the parser's to report.
  case malformed(reason: String, fatal: Bool)
}
