import JSONRPC

/// A typed reader over one JSON object of the params: every read names its field, so
/// a wrong type becomes `-32602` with the field's full path (`content.badge: expected an
/// integer, got a string`), and the object's unknown or duplicated fields are refused
/// up front, so a typo never passes silently.
///
/// `null` stands for "absent" in optional fields (clients often send it for "not set");
/// a required field that is null is an error.
public struct Params {
  public let path: String
  private let members: [JSONMember]
  /// Read back from the store, not from a client: identifiers are taken as they were
  /// kept (an older version kept some with U+0000, which clients can no longer send).
  public let stored: Bool

  /// `value` nil (no `params` member) reads as an empty object.
  public init(_ value: JSONValue?, path: String = "", allowed: [String], stored: Bool = false) throws(RPCError) {
    self.path = path
    self.stored = stored
    switch value {
    case nil:
      members = []
    case .object(let m)?:
      members = m
    case .array? where path.isEmpty:
      throw RPCError.invalidParams(field: path, "params must be an object (by name), not an array")
    case let other?:
      throw RPCError.invalidParams(field: path, "expected an object, got \(other.typeName)")
    }
    // Objects here have a handful of members: comparing names directly is cheaper than
    // hashing them into a set.
    for (i, member) in members.enumerated() {
      guard allowed.contains(where: { Self.same($0, member.name) }) else {
        throw RPCError.invalidParams(field: field(member.name), "unknown field")
      }
      for earlier in members[..<i] where Self.same(earlier.name, member.name) {
        throw RPCError.invalidParams(field: field(member.name), "duplicate field")
      }
    }
  }

  /// String equality that rejects different lengths first: most comparisons here are
  /// between different names, and `==` alone takes its slow path for those.
  @inline(__always)
  public static func same(_ a: String, _ b: String) -> Bool { a.utf8.count == b.utf8.count && a == b }

  public func field(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

  /// The raw value, nil when absent or null.
  public func value(_ name: String) -> JSONValue? {
    for member in members where Self.same(member.name, name) {
      if case .null = member.value { return nil }
      return member.value
    }
    return nil
  }

  public func has(_ name: String) -> Bool { members.contains { Self.same($0.name, name) } }

  private func mismatch(_ name: String, _ expected: String, _ got: JSONValue) -> RPCError {
    RPCError.invalidParams(field: field(name), "expected \(expected), got \(got.typeName)")
  }

  public func string(_ name: String) throws(RPCError) -> String? {
    guard let v = value(name) else { return nil }
    guard case .string(let s) = v else { throw mismatch(name, "a string", v) }
    return s
  }

  public func requiredString(_ name: String, nonEmpty: Bool = true) throws(RPCError) -> String {
    guard let s = try string(name) else { throw RPCError.invalidParams(field: field(name), "required") }
    if nonEmpty, s.isEmpty { throw RPCError.invalidParams(field: field(name), "must be a non-empty string") }
    return s
  }

  /// An identifier (of an app, a request, a category, an action, a thread, a time
  /// zone...): a string without U+0000.  Identifiers are kept and compared as their exact
  /// bytes; a NUL would end one where C strings (a time zone's name) read it.
  public func identifier(_ name: String) throws(RPCError) -> String? {
    guard let s = try string(name) else { return nil }
    if !stored { try Self.refuseNUL(s, field: field(name)) }
    return s
  }

  public func requiredIdentifier(_ name: String, nonEmpty: Bool = true) throws(RPCError) -> String {
    let s = try requiredString(name, nonEmpty: nonEmpty)
    if !stored { try Self.refuseNUL(s, field: field(name)) }
    return s
  }

  /// An array of identifiers: `stringArray` whose elements have no U+0000.
  public func identifierArray(_ name: String, nonEmpty: Bool = false) throws(RPCError) -> [String]? {
    guard let list = try stringArray(name, nonEmpty: nonEmpty) else { return nil }
    if !stored {
      for (i, s) in list.enumerated() { try Self.refuseNUL(s, field: field(name) + "[\(i)]") }
    }
    return list
  }

  /// `-32602` naming `field` when `s` holds U+0000.
  public static func refuseNUL(_ s: String, field: String) throws(RPCError) {
    guard s.utf8.contains(0) else { return }
    throw RPCError.invalidParams(field: field, "an identifier must not contain U+0000")
  }

  public func bool(_ name: String) throws(RPCError) -> Bool? {
    guard let v = value(name) else { return nil }
    guard case .bool(let b) = v else { throw mismatch(name, "a boolean", v) }
    return b
  }

  public func double(_ name: String) throws(RPCError) -> Double? {
    guard let v = value(name) else { return nil }
    guard case .number = v, let d = v.doubleValue else { throw mismatch(name, "a number", v) }
    guard d.isFinite else { throw RPCError.invalidParams(field: field(name), "number out of range") }
    return d
  }

  public func requiredDouble(_ name: String) throws(RPCError) -> Double {
    guard let d = try double(name) else { throw RPCError.invalidParams(field: field(name), "required") }
    return d
  }

  /// An integer in `range` (a number with a fractional part, or out of range, is refused).
  public func int(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(RPCError) -> Int? {
    guard let v = value(name) else { return nil }
    guard case .number = v else { throw mismatch(name, "an integer", v) }
    guard let i = v.intValue else { throw RPCError.invalidParams(field: field(name), "expected an integer") }
    guard range.contains(i) else {
      let lower = range.lowerBound == Int.min ? "" : "\(range.lowerBound)"
      let upper = range.upperBound == Int.max ? "" : "\(range.upperBound)"
      throw RPCError.invalidParams(field: field(name), "\(i) is out of range \(lower)...\(upper)")
    }
    return i
  }

  public func array(_ name: String) throws(RPCError) -> [JSONValue]? {
    guard let v = value(name) else { return nil }
    guard case .array(let a) = v else { throw mismatch(name, "an array", v) }
    return a
  }

  public func stringArray(_ name: String, nonEmpty: Bool = false) throws(RPCError) -> [String]? {
    guard let elements = try array(name) else { return nil }
    var out: [String] = []
    out.reserveCapacity(elements.count)
    for (i, e) in elements.enumerated() {
      guard case .string(let s) = e else {
        throw RPCError.invalidParams(field: field(name) + "[\(i)]", "expected a string, got \(e.typeName)")
      }
      if nonEmpty, s.isEmpty {
        throw RPCError.invalidParams(field: field(name) + "[\(i)]", "must be a non-empty string")
      }
      out.append(s)
    }
    return out
  }

  /// An array of names from a fixed set (options, presentation), order kept, no repeats.
  public func enumArray<E: RawRepresentable & CaseIterable>(_ name: String, _: E.Type) throws(RPCError) -> [E]?
  where E.RawValue == String {
    guard let names = try stringArray(name) else { return nil }
    var out: [E] = []
    for (i, n) in names.enumerated() {
      guard let e = E(rawValue: n) else {
        let allowed = E.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        throw RPCError.invalidParams(field: field(name) + "[\(i)]", "'\(n)' is not one of \(allowed)")
      }
      guard !out.contains(where: { $0.rawValue == e.rawValue }) else {
        throw RPCError.invalidParams(field: field(name) + "[\(i)]", "'\(n)' is repeated")
      }
      out.append(e)
    }
    return out
  }

  public func enumValue<E: RawRepresentable & CaseIterable>(_ name: String, _: E.Type) throws(RPCError) -> E?
  where E.RawValue == String {
    guard let n = try string(name) else { return nil }
    guard let e = E(rawValue: n) else {
      let allowed = E.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
      throw RPCError.invalidParams(field: field(name), "'\(n)' is not one of \(allowed)")
    }
    return e
  }

  /// A nested object, read with its own allowed fields.
  public func object(_ name: String, allowed: [String]) throws(RPCError) -> Params? {
    guard let v = value(name) else { return nil }
    return try Params(v, path: field(name), allowed: allowed, stored: stored)
  }
}
