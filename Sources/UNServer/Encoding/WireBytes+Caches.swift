import JSONRPC
import UNModel
import UNProtocol

/// The daemon's answers written through one-entry caches: a burst of requests in one
/// millisecond, or naming the same category, shares the text written for the first.
extension WireBytes {
  /// A date through a one-entry cache: answers written in the same millisecond (a
  /// burst of `scheduleLocal`, every `ping`) share their date text.
  static func date(_ i: Instant, _ o: inout [UInt8], cache: DateTextCache) {
    if cache.instant != i {
      cache.instant = i
      cache.text.removeAll(keepingCapacity: true)
      date(i, &cache.text)
    }
    o.append(contentsOf: cache.text)
  }

  /// A list of warnings as a JSON array, through a one-entry cache: the model hands out
  /// the same array for every request naming the same unregistered category, so one
  /// comparison (of the array with itself) replaces escaping the text again.
  static func warnings(_ list: [String], _ o: inout [UInt8], cache: WarningsTextCache) {
    if list != cache.warnings {
      cache.warnings = list
      cache.text.removeAll(keepingCapacity: true)
      cache.text.append(UInt8(ascii: "["))
      for (i, w) in list.enumerated() {
        if i > 0 { cache.text.append(UInt8(ascii: ",")) }
        string(w, &cache.text)
      }
      cache.text.append(UInt8(ascii: "]"))
    }
    o.append(contentsOf: cache.text)
  }
}

/// The last date written by `WireBytes.date(_:_:cache:)`, quoted.  Owned by the
/// dispatcher, on the loop thread.
final class DateTextCache {
  var instant: Instant?
  var text: [UInt8] = []
  /// The last `ping` result, `{"now":"…"}`, and its instant.
  var pingResult: (Instant, [UInt8])?
}

/// The last warnings written by `WireBytes.warnings(_:_:cache:)` and their JSON text.
/// Owned by the dispatcher, on the loop thread.
final class WarningsTextCache {
  var warnings: [String] = []
  var text: [UInt8] = Array("[]".utf8)
  /// The end of the last `scheduleLocal` result, from its next trigger date on
  /// (`"…","warnings":[…]}`; empty before the first), and the date and warnings it was
  /// written from: the answers of a burst of requests in one millisecond naming the same
  /// category end alike, and are finished with one copy.
  var resultTail: [UInt8] = []
  var resultTailDate: Instant?
  var resultTailWarnings: [String] = []
}
