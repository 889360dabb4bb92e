// Fuzz harness `json`: JSONParser against Foundation's JSONSerialization, and the
// writer's round trip.
//
// Compiled into the JSONRPC module (see Fuzz/build.sh).  For every input:
// - when the parser accepts: encode(v) has no raw '\n' byte and parse(encode(v)) == v
//   exactly (numbers keep their text);
// - when the input is valid UTF-8 and not excluded (Fuzz/README.md lists the documented
//   differences and why): the parser accepts it exactly when JSONSerialization with
//   .fragmentsAllowed does, and when both accept the values are equal structurally
//   (numbers by Double value, strings exactly, objects as dictionaries where the last
//   duplicate wins, arrays in order).
import Foundation

private func fail(_ message: String, _ input: [UInt8]) -> Never {
  fatalError("json invariant failed: \(message)\ninput: \(String(decoding: input.prefix(400), as: UTF8.self))")
}

/// Why this input is left out of the accept/reject comparison, or nil.
private func exclusion(_ input: [UInt8], ours: Result<JSONValue, JSONParseError>) -> String? {
  // Foundation reads UTF-16/32 when a NUL is among the first 4 bytes, and skips a BOM.
  if input.prefix(4).contains(0) { return "nul-in-first-4-bytes" }
  if input.starts(with: [0xEF, 0xBB, 0xBF]) { return "bom" }
  if case .failure(let e) = ours {
    if e.reason.hasPrefix("lone surrogate") { return "lone-surrogate" }
    if e.reason.hasPrefix("nesting deeper than") { return "depth" }
  }
  return nil
}

/// A text we reject and Foundation accepts for a documented reason, or nil.
private func foundationLeniency(_ input: [UInt8], _ e: JSONParseError) -> String? {
  // Foundation accepts a trailing comma before ']' or '}'.
  if e.offset < input.count, input[e.offset] == UInt8(ascii: "]") || input[e.offset] == UInt8(ascii: "}"),
    input[..<e.offset].last(where: { !isJSONWhitespace($0) }) == UInt8(ascii: ",")
  {
    return "trailing-comma"
  }
  return nil
}

/// A text we accept and Foundation rejects for a documented reason, or nil.
private func ourLeniency(_ value: JSONValue) -> String? {
  // Foundation refuses numbers whose magnitude overflows a Double (1e400); we keep the text.
  hasNumber(value) { Double($0).map { !$0.isFinite } ?? true } ? "number-overflow" : nil
}

private func hasNumber(_ value: JSONValue, _ test: (String) -> Bool) -> Bool {
  switch value {
  case .number(let text): return test(text)
  case .array(let elements): return elements.contains { hasNumber($0, test) }
  case .object(let members): return members.contains { hasNumber($0.value, test) }
  default: return false
  }
}

/// Digits of the mantissa without leading zeros.
private func significantDigits(_ text: String) -> Int {
  let mantissa = text.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber)
  return mantissa.drop { $0 == "0" }.count
}

/// Digits of the mantissa, leading zeros included.
private func mantissaDigits(_ text: String) -> Int {
  text.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber).count
}

private func withoutBOM(_ s: String) -> String {
  guard s.unicodeScalars.contains("\u{FEFF}") else { return s }
  var out = String.UnicodeScalarView()
  out.append(contentsOf: s.unicodeScalars.filter { $0 != "\u{FEFF}" })
  return String(out)
}

private func isJSONWhitespace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

/// Foundation's value compared with ours; nil when equal, else the difference.
private func difference(_ ours: JSONValue, _ theirs: Any, path: String) -> String? {
  switch ours {
  case .null:
    return theirs is NSNull ? nil : "\(path): null vs \(type(of: theirs)) \(theirs)"
  case .bool(let b):
    guard let n = theirs as? NSNumber, isBoolean(n) else { return "\(path): bool vs \(type(of: theirs)) \(theirs)" }
    return n.boolValue == b ? nil : "\(path): \(b) vs \(n)"
  case .number(let text):
    guard let d = Double(text) else { return "\(path): our number \(text) has no Double" }
    let other: Double
    if let n = theirs as? NSNumber, !isBoolean(n) {
      other = n.doubleValue
    } else if let dec = theirs as? Decimal {
      other = NSDecimalNumber(decimal: dec).doubleValue
    } else {
      return "\(path): number vs \(type(of: theirs)) \(theirs)"
    }
    if d == other { return nil }
    // Foundation's conversion to Double is not always correctly rounded: a few ULPs apart
    // is the same number (ours is Swift's correctly rounded Double(String)).
    if abs(d - other) <= 4 * max(d.ulp, other.ulp) { return nil }
    // Foundation reads long numbers through Decimal and its Double is not always the
    // nearest one (`0.23456789012345687` comes back as `0.234567890123457`, and `0.` then
    // 104 zeros and `1` as `1.000000000000001e-105`): beyond 15 significant digits, a
    // mantissa written with more than 15 digits, or for subnormals, only a close value
    // is required.
    if significantDigits(text) > 15 || mantissaDigits(text) > 15 || (d != 0 && abs(d) < Double.leastNormalMagnitude) {
      if abs(d - other) <= 1e-9 * max(abs(d), abs(other)) || abs(d - other) < 1e-300 { return nil }
    }
    return "\(path): number \(text) = \(d) vs \(other)"
  case .string(let s):
    guard let t = theirs as? String else { return "\(path): string vs \(type(of: theirs)) \(theirs)" }
    if s == t { return nil }
    // Foundation drops a U+FEFF that starts a string or a run of it after an escape:
    // strings that differ only by dropped U+FEFFs are equal.
    let bom: Unicode.Scalar = "\u{FEFF}"
    if s.unicodeScalars.filter({ $0 != bom }) == t.unicodeScalars.filter({ $0 != bom }),
      t.unicodeScalars.count <= s.unicodeScalars.count
    {
      return nil
    }
    return "\(path): string \(Array(s.unicodeScalars)) vs \(Array(t.unicodeScalars))"
  case .array(let elements):
    guard let list = theirs as? [Any] else { return "\(path): array vs \(type(of: theirs))" }
    guard list.count == elements.count else { return "\(path): \(elements.count) elements vs \(list.count)" }
    for (i, (a, b)) in zip(elements, list).enumerated() {
      if let d = difference(a, b, path: "\(path)[\(i)]") { return d }
    }
    return nil
  case .object(let members):
    guard let raw = theirs as? [String: Any] else { return "\(path): object vs \(type(of: theirs))" }
    // Names are compared without U+FEFF, which Foundation may drop (see strings).
    var dict: [String: Any] = [:]
    for (name, value) in raw { dict[withoutBOM(name)] = value }
    var last: [String: JSONValue] = [:]
    for m in members { last[withoutBOM(m.name)] = m.value }
    guard Set(last.keys) == Set(dict.keys) else {
      return "\(path): keys \(last.keys.sorted()) vs \(dict.keys.sorted())"
    }
    for (name, value) in last {
      if let d = difference(value, dict[name]!, path: "\(path).\(name)") { return d }
    }
    return nil
  }
}

private func isBoolean(_ n: NSNumber) -> Bool {
  // swift-corelibs-foundation makes true/false NSNumbers of Bool type ("c").
  let type = String(cString: n.objCType)
  return type == "c" || type == "B"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  let ours = Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(input) }

  // Round trip.
  if case .success(let value) = ours {
    let encoded = value.encoded()
    if encoded.contains(0x0A) { fail("the encoding contains a raw newline", input) }
    do {
      let back = try JSONParser.parse(encoded)
      if back != value { fail("parse(encode(v)) != v: \(String(decoding: encoded, as: UTF8.self))", input) }
    } catch {
      fail("encode(v) does not parse: \(error.reason): \(String(decoding: encoded, as: UTF8.self))", input)
    }
  }

  // Differential.
  guard String(validating: input, as: UTF8.self) != nil else { return 0 }
  if exclusion(input, ours: ours) != nil { return 0 }
  let theirs: Any?
  do {
    theirs = try JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed])
  } catch {
    theirs = nil
  }
  switch (ours, theirs) {
  case (.success(let v), nil):
    if ourLeniency(v) != nil { break }
    fail("we accept, Foundation rejects; ours: \(String(decoding: v.encoded().prefix(200), as: UTF8.self))", input)
  case (.failure(let e), let t?):
    if foundationLeniency(input, e) != nil { break }
    fail("we reject (\(e.reason)), Foundation accepts: \(t)", input)
  case (.success(let v), let t?):
    if let d = difference(v, t, path: "$") { fail("values differ: \(d)", input) }
  case (.failure, nil):
    break
  }
  return 0
}
