/// A JSON value as parsed from the wire.
///
/// Numbers keep their exact source text so that a request `id` is echoed byte for
/// byte (`1.50`, `1e3` and `-0` come back as sent) and so that no precision is lost
/// before a typed reader decides what the number must be.  Objects keep their members
/// in source order; a duplicated name is kept too (RFC 8259 allows it) and the typed
/// readers reject it where it matters.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  /// The number's text exactly as it appeared, already checked against RFC 8259's grammar.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([JSONMember])
}

/// One `"name": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
  public var name: String
  public var value: JSONValue
  public init(_ name: String, _ value: JSONValue) {
    self.name = name
    self.value = value
  }
}

extension JSONValue {
  /// Builds an object from members given in order.
  public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
    .object(pairs.map { JSONMember($0.key, $0.value) })
  }

  /// A number from an integer.
  public static func int<I: BinaryInteger>(_ value: I) -> JSONValue { .number(String(value)) }

  /// A number from a double; non-finite values have no JSON form and become `null`.
  public static func double(_ value: Double) -> JSONValue {
    guard value.isFinite else { return .null }
    if abs(value) < 1e15, Double(Int64(value)) == value { return .number(String(Int64(value))) }
    return .number("\(value)")
  }

  /// The first member with this name, when this is an object.
  public subscript(name: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    for member in members where member.name.utf8.count == name.utf8.count && member.name == name {
      return member.value
    }
    return nil
  }

  /// The element at this index, when this is an array.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// The number as a `Double`, when it is a number (possibly rounded; huge exponents give ±infinity).
  public var doubleValue: Double? {
    if case .number(let text) = self { return Double(text) }
    return nil
  }

  /// The number as an `Int`, when it is a number with an exact integral value in range
  /// (`3`, `3.0` and `3e0` all qualify; `3.5` and `1e40` do not).
  public var intValue: Int? {
    guard case .number(let text) = self else { return nil }
    if let exact = Int(text) { return exact }
    guard let d = Double(text), abs(d) <= 9_007_199_254_740_992, Double(Int(d)) == d else { return nil }
    return Int(d)
  }

  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  public var objectValue: [JSONMember]? {
    if case .object(let o) = self { return o }
    return nil
  }

  /// The JSON type's name, as used in error messages ("expected a string, got a number").
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
