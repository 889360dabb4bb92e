import JSONRPC

/// Where an actual value departs from an expected subset, by the rules of
/// `JSONValue.matches` (README.md, "Scenarios": objects are subsets, arrays match element
/// by element with the same length).  A path is the member names and array indices from the
/// root, so the report can mark the same keys on both sides.
enum JSONDiff {
  typealias Path = [String]

  /// Every path where `actual` fails to match `expected`: a missing key, a different
  /// scalar, an array of another length (the array itself), a value of another type.
  static func paths(expected: JSONValue, actual: JSONValue?) -> Set<Path> {
    var out: Set<Path> = []
    walk(expected, actual, [], &out)
    return out
  }

  private static func walk(_ want: JSONValue, _ have: JSONValue?, _ path: Path, _ out: inout Set<Path>) {
    guard let have else {
      out.insert(path)
      return
    }
    switch (want, have) {
    case (.object(let members), .object):
      for m in members { walk(m.value, have[m.name], path + [m.name], &out) }
    case (.array(let wanted), .array(let had)):
      guard wanted.count == had.count else {
        out.insert(path)
        return
      }
      for (i, pair) in zip(wanted, had).enumerated() { walk(pair.0, pair.1, path + [String(i)], &out) }
    default:
      if !have.matches(want) { out.insert(path) }
    }
  }

  /// `result.groups[0].summary`; the whole value is `(the value)`.
  static func text(_ path: Path) -> String {
    guard !path.isEmpty else { return "(the value)" }
    var out = ""
    for part in path {
      if Int(part) != nil { out += "[\(part)]" } else { out += out.isEmpty ? part : ".\(part)" }
    }
    return out
  }

  /// Of `candidates`, the one closest to `expected` (fewest differing paths), for showing
  /// beside it when no callback matched; nil when there are none.
  static func nearest(to expected: JSONValue, in candidates: [JSONValue]) -> JSONValue? {
    candidates.min { paths(expected: expected, actual: $0).count < paths(expected: expected, actual: $1).count }
  }
}
