import JSONRPC
import UNModel

/// The pieces every byte encoder writes with (`Shapes/`: keys, strings, dates,
/// numbers, arrays), the same formatting as `JSONWriter`, without a `JSONValue` tree.
enum WireBytes {
  static func key(_ k: StaticString, _ o: inout [UInt8]) { JSONWriter.appendASCII(k, to: &o) }

  static func string(_ s: String, _ o: inout [UInt8]) { JSONWriter.appendString(s, to: &o) }

  /// `key` (the literal text before the value, e.g. `,"url":`) then `value` quoted.
  static func member(_ key: StaticString, _ value: String, _ o: inout [UInt8]) {
    JSONWriter.appendASCII(key, to: &o)
    JSONWriter.appendString(value, to: &o)
  }

  static func date(_ i: Instant, _ o: inout [UInt8]) {
    o.append(UInt8(ascii: "\""))
    i.appendRFC3339(to: &o)
    o.append(UInt8(ascii: "\""))
  }

  /// The same through a one-entry cache: answers written in the same millisecond (a
  /// burst of `scheduleLocal`, every `ping`) share their date text.
  static func date(_ i: Instant, _ o: inout [UInt8], cache: DateTextCache) {
    if cache.instant != i {
      cache.instant = i
      cache.text.removeAll(keepingCapacity: true)
      date(i, &cache.text)
    }
    o.append(contentsOf: cache.text)
  }

  static func number(_ v: JSONValue, _ o: inout [UInt8]) { JSONWriter.append(v, to: &o) }

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

  /// `[e,e,...]`, each element written by `element`.
  static func array<Element>(_ list: [Element], _ o: inout [UInt8], _ element: (Element, inout [UInt8]) -> Void) {
    o.append(UInt8(ascii: "["))
    for (i, e) in list.enumerated() {
      if i > 0 { o.append(UInt8(ascii: ",")) }
      element(e, &o)
    }
    o.append(UInt8(ascii: "]"))
  }

  /// A small non-negative integer, digit by digit (counts, badges).
  static func integer(_ value: Int, _ o: inout [UInt8]) {
    guard value >= 0, value < 1_000_000_000 else { return number(.int(value), &o) }
    withDigits(value) { o.append(contentsOf: $0) }
  }

  /// Calls `body` with the decimal digits of `value`, in 0..<1_000_000_000, formatted on
  /// the stack.
  static func withDigits(_ value: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { buffer in
      var n = value
      var first = buffer.count
      repeat {
        first -= 1
        buffer[first] = UInt8(truncatingIfNeeded: 48 + n % 10)
        n /= 10
      } while n > 0
      body(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[first...]))
    }
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
