extension JSONValue {
  /// Subset match, as scenario `expect*` steps and `waitFor` filters use it: every member
  /// given in `pattern` must be present here and match recursively; members not given
  /// are ignored; arrays match element by element and must have the same length (so `[]`
  /// means "none"); scalars must be equal (numbers by value: `5` matches `5.0`; strings
  /// by their exact UTF-8, as the daemon compares identifiers, where `==` would take two
  /// spellings of one text, NFC and NFD, for the same).
  public func matches(_ pattern: JSONValue) -> Bool {
    switch (pattern, self) {
    case (.object(let want), .object):
      return want.allSatisfy { member in self[member.name].map { $0.matches(member.value) } ?? false }
    case (.array(let want), .array(let have)):
      return want.count == have.count && zip(have, want).allSatisfy { $0.matches($1) }
    case (.number(let a), .number(let b)):
      return a == b || (Double(a) != nil && Double(a) == Double(b))
    case (.string(let a), .string(let b)):
      return a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    default:
      return pattern == self
    }
  }
}
