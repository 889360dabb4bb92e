extension Framer {
  /// The framing a connection uses, from its first non-whitespace byte: an ASCII letter
  /// starts a `Content-Length` header, anything else a newline-delimited JSON text.  Nil
  /// while only whitespace has been seen.  The server reads it before feeding a chunk, so
  /// it can frame answers while the framer is busy delivering messages.
  public static func detectFraming(_ chunk: UnsafeRawBufferPointer) -> Framing? {
    for byte in chunk where !isWhitespace(byte) {
      let lower = byte | 0x20
      return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") ? .contentLength : .newlineDelimited
    }
    return nil
  }
}
