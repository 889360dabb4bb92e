/// The protocol's vocabulary, read from requests over and over: member names such as
/// `categoryIdentifier` and values such as `scheduleLocal`.  The reader hands out these
/// shared strings instead of building (and, past 15 bytes, allocating) a new one each
/// time.  Bucketed by length; a lookup is a length check and a byte comparison.
enum JSONNames {
  static let words: [String] = [
    "jsonrpc", "2.0", "id", "method", "params", "result", "error", "app", "appId", "identifier", "identifiers",
    "content", "trigger", "type", "timeInterval", "calendar", "repeats", "dateMatching", "timeZone", "title",
    "subtitle", "body", "badge", "sound", "userInfo", "categoryIdentifier", "threadIdentifier", "summaryArgument",
    "summaryArgumentCount", "targetContentIdentifier", "interruptionLevel", "relevanceScore", "launchImageName",
    "filterCriteria", "categories", "actions", "options", "textInput", "intentIdentifiers", "limit", "after",
    "upcoming", "grouped", "actionIdentifier", "userText", "authenticated", "responseId", "seconds", "event",
    "timeout", "since", "role", "foreground", "presentation", "surface", "ping", "hello", "scheduleLocal",
    "listPending", "removePending", "listDelivered", "removeDelivered", "respond", "advanceClock",
    "registerCategories", "getCategories", "pushRemote", "payload", "aps", "alert", "default", "seq",
  ]

  /// `byLength[n]`: the words of n bytes, with their UTF-8.
  static let byLength: [[(bytes: [UInt8], word: String)]] = {
    var table = [[(bytes: [UInt8], word: String)]](repeating: [], count: 32)
    for w in words {
      let bytes = Array(w.utf8)
      if bytes.count < table.count { table[bytes.count].append((bytes, w)) }
    }
    return table
  }()

  /// The shared string for these bytes, if they are a known word.
  @inline(__always)
  static func lookup(_ start: UnsafePointer<UInt8>, _ count: Int) -> String? {
    guard count < 32 else { return nil }
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
