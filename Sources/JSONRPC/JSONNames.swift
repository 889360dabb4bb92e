/// JSON-RPC's own vocabulary, read in every message: the envelope's member names and
/// its version string.  The reader hands out these shared strings instead of building a
/// new one each time.  Bucketed by length; a lookup is a length check and a byte
/// comparison.  The application's words are not here: this layer knows only JSON-RPC.
enum JSONNames {
  static let words: [String] = ["jsonrpc", "2.0", "id", "method", "params", "result", "error"]

  /// `byLength[n]`: the words of n bytes, with their UTF-8.
  static let byLength: [[(bytes: [UInt8], word: String)]] = {
    var table = [[(bytes: [UInt8], word: String)]](repeating: [], count: 8)
    for w in words {
      let bytes = Array(w.utf8)
      if bytes.count < table.count { table[bytes.count].append((bytes, w)) }
    }
    return table
  }()

  /// The shared string for these bytes, if they are a known word.
  @inline(__always)
  static func lookup(_ start: UnsafePointer<UInt8>, _ count: Int) -> String? {
    guard count < 8 else { return nil }
    for candidate in byLength[count] {
      if candidate.bytes.withUnsafeBufferPointer({ memcmpEqual($0.baseAddress!, start, count) }) {
        return candidate.word
      }
    }
    return nil
  }

  @inline(__always)
  private static func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    for k in 0..<n where a[k] != b[k] { return false }
    return true
  }
}
