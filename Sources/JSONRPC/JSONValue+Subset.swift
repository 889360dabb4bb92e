extension JSONValue {
  /// Subset match, as scenario `expect*` steps and `waitFor` filters use it: every member
  /// given in `pattern` must be present here and match recursively; members not given
  /// are ignored; arrays match element by element and must have the same length (so `[]`
  /// means "none"); scalars must be equal (numbers by value: `5` matches `5.0`).
  public func matches(_ pattern: JSONValue) -> Bool {
    switch (pattern, self) {
    case (.object(let want), .object):
      return want.allSatisfy { member in self[member.name].map { $0.matches(member.value) } ?? false }
    case (.array(let want), .array(let have)):
      return want.count == have.count && zip(have, want).allSatisfy { $0.matches($1) }
    case (.number(let a), .number(let b)):
      return a == b || (Double(a) != nil && Double(a) == Double(b))
    default:
      return pattern == self
    }
  }
}
