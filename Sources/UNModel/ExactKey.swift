#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An identifier as a dictionary or set key: compared and hashed as its exact UTF-8
/// bytes.
///
/// Swift's `String ==` and hashing use Unicode canonical equivalence, so `com.café`
/// spelled with a precomposed `é` (NFC) and with `e` + U+0301 (NFD) would be one key,
/// while Apple compares identifiers literally (`NSString isEqual:` compares the code
/// units, with no normalisation) and the store keeps them as the bytes they are.  Every
/// identifier a client names and the daemon looks up or groups by (app ids, request,
/// category, action, thread and attachment identifiers) is keyed with this type or
/// compared with `exactlyEquals` (see the "Identifiers" section of
/// `proto-docs/README.md`).
public struct ExactKey: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  public let string: String

  @inlinable
  public init(_ string: String) { self.string = string }

  @inlinable
  public init(stringLiteral value: String) { self.string = value }

  @inline(__always)
  public static func == (a: ExactKey, b: ExactKey) -> Bool { sameUTF8(a.string, b.string) }

  public func hash(into hasher: inout Hasher) {
    withUTF8Bytes(string) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// Byte order (that of SQLite's `BINARY` collation, and of the code points).
  public static func < (a: ExactKey, b: ExactKey) -> Bool {
    withUTF8Bytes(a.string) { x in
      withUTF8Bytes(b.string) { y in
        let n = min(x.count, y.count)
        let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
        return c != 0 ? c < 0 : x.count < y.count
      }
    }
  }

  public var description: String { string }
}

extension String {
  /// Whether `self` and `other` are the same identifier: the same UTF-8 bytes (`==`
  /// is canonical equivalence, which is looser; see `ExactKey`).
  @inline(__always)
  public func exactlyEquals(_ other: String) -> Bool { sameUTF8(self, other) }
}

extension Optional where Wrapped == String {
  /// `exactlyEquals` for an identifier that may be absent: two absent ones are equal.
  @inline(__always)
  public func exactlyEquals(_ other: String?) -> Bool {
    switch (self, other) {
    case (nil, nil): true
    case (let a?, let b?): sameUTF8(a, b)
    default: false
    }
  }
}

extension Dictionary where Key == ExactKey {
  /// The value under the identifier's exact bytes.
  @inline(__always)
  public subscript(_ identifier: String) -> Value? {
    get { self[ExactKey(identifier)] }
    set { self[ExactKey(identifier)] = newValue }
  }

  @inline(__always)
  public subscript(_ identifier: String, default value: @autoclosure () -> Value) -> Value {
    get { self[ExactKey(identifier), default: value()] }
    _modify { yield &self[ExactKey(identifier), default: value()] }
  }

  @discardableResult
  public mutating func removeValue(forKey identifier: String) -> Value? { removeValue(forKey: ExactKey(identifier)) }
}

extension Set where Element == ExactKey {
  @inline(__always)
  public func contains(_ identifier: String) -> Bool { contains(ExactKey(identifier)) }

  @discardableResult
  public mutating func insert(_ identifier: String) -> (inserted: Bool, memberAfterInsert: ExactKey) {
    insert(ExactKey(identifier))
  }

  @discardableResult
  public mutating func remove(_ identifier: String) -> ExactKey? { remove(ExactKey(identifier)) }

  /// The identifiers in byte order.
  public var sortedStrings: [String] { isEmpty ? [] : sorted().map(\.string) }
}
