/// Why a byte sequence is not an RFC 8259 JSON text.
///
/// The reason names the byte offset itself ("unexpected character 'x' at byte 12") so
/// that it can be put straight into a `-32700` message without reformatting, while
/// `offset` stays available for callers that want to point at the byte.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Zero-based byte offset of the problem in the parsed buffer.
  public var offset: Int
  /// Human-readable explanation, including the offset.
  public var reason: String

  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  public var description: String { reason }
}
