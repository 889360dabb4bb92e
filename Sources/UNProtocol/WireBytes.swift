import JSONRPC
import UNModel

/// The pieces every byte encoder writes with (`Shapes/`: keys, strings, dates,
/// numbers, arrays), the same formatting as `JSONWriter`, without a `JSONValue` tree.
public enum WireBytes {
  public static func key(_ k: StaticString, _ o: inout [UInt8]) { JSONWriter.appendASCII(k, to: &o) }

  public static func string(_ s: String, _ o: inout [UInt8]) { JSONWriter.appendString(s, to: &o) }

  /// `key` (the literal text before the value, e.g. `,"url":`) then `value` quoted.
  public static func member(_ key: StaticString, _ value: String, _ o: inout [UInt8]) {
    JSONWriter.appendASCII(key, to: &o)
    JSONWriter.appendString(value, to: &o)
  }

  public static func date(_ i: Instant, _ o: inout [UInt8]) {
    o.append(UInt8(ascii: "\""))
    i.appendRFC3339(to: &o)
    o.append(UInt8(ascii: "\""))
  }

  public static func number(_ v: JSONValue, _ o: inout [UInt8]) { JSONWriter.append(v, to: &o) }

  /// `[e,e,...]`, each element written by `element`.
  public static func array<Element>(_ list: [Element], _ o: inout [UInt8], _ element: (Element, inout [UInt8]) -> Void)
  {
    o.append(UInt8(ascii: "["))
    for (i, e) in list.enumerated() {
      if i > 0 { o.append(UInt8(ascii: ",")) }
      element(e, &o)
    }
    o.append(UInt8(ascii: "]"))
  }

  /// A small non-negative integer, digit by digit (counts, badges).
  public static func integer(_ value: Int, _ o: inout [UInt8]) {
    guard value >= 0, value < 1_000_000_000 else { return number(.int(value), &o) }
    withDigits(value) { o.append(contentsOf: $0) }
  }

  /// Calls `body` with the decimal digits of `value`, in 0..<1_000_000_000, formatted on
  /// the stack.
  public static func withDigits(_ value: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
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
