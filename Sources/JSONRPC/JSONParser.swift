/// A strict, single-pass RFC 8259 parser over raw bytes.
///
/// It accepts exactly the JSON texts of RFC 8259 and nothing more, because the daemon
/// must answer every malformed request with `-32700` instead of guessing:
///
/// - whitespace is only space, tab, CR and LF; any value may stand at the top level;
/// - no trailing commas, leading zeros, `NaN`/`Infinity`, comments or raw control
///   characters in strings; escapes are exactly `\" \\ \/ \b \f \n \r \t \uXXXX`;
/// - invalid UTF-8 is rejected everywhere (overlong forms, encoded surrogates
///   `ED A0..BF`, scalars above U+10FFFF, truncated sequences, stray continuation bytes);
/// - a UTF-8 byte order mark at the start is rejected: RFC 8259 §8.1 says senders must
///   not add one, and a BOM in front of a request is a client bug worth reporting;
/// - escaped surrogate pairs are combined, but a lone surrogate escape (`\uD800` alone,
///   or a high surrogate not followed by a low one) is rejected with
///   "lone surrogate \uD800 at byte N": a Swift `String` cannot hold one, and silently
///   replacing it with U+FFFD would change the client's data behind its back;
/// - nesting deeper than `maxDepth` containers is rejected; the parser keeps its own
///   stack of open containers and never recurses, so hostile input cannot overflow the
///   thread's stack;
/// - duplicate object names are kept in order (they are valid JSON; the typed readers
///   decide what to do with them);
/// - numbers are checked against the grammar and kept as their exact source text, so
///   `1e400` is accepted as text and only a typed reader decides whether it fits.
public enum JSONParser {
  /// Parses one complete JSON text occupying all of `bytes`.
  public static func parse(
    _ bytes: UnsafeRawBufferPointer, maxDepth: Int = 512
  ) throws(JSONParseError) -> JSONValue {
    var reader = JSONReader(bytes, maxDepth: maxDepth)
    return try reader.parseDocument()
  }

  /// Parses one complete JSON text held in an array.
  public static func parse(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONParseError) -> JSONValue {
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(JSONParseError) -> JSONValue in try parse(raw, maxDepth: maxDepth) }
    }
    return try result.get()
  }

  /// Parses one complete JSON text held in a string (its UTF-8 form).
  public static func parse(_ text: String, maxDepth: Int = 512) throws(JSONParseError) -> JSONValue {
    try parse(Array(text.utf8), maxDepth: maxDepth)
  }
}
