import JSONRPC

/// Escaping, clock times and JSON with marked keys for the HTML report.
extension HTMLReport {
  /// HTML text and attribute escaping (`&`, `<`, `>`, both quotes).
  static func esc(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for c in s.unicodeScalars {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.unicodeScalars.append(c)
      }
    }
    return out
  }

  /// `2026-01-01T08:00:05.000Z` as `08:00:05` (or `2026-01-01 08:00:05` when `full`).
  static func clockText(_ date: String, full: Bool = false) -> String {
    guard date.count >= 19, let t = date.firstIndex(of: "T") else { return esc(date) }
    let day = date[..<t]
    let time = date[date.index(after: t)...].prefix(8)
    return esc(full ? "\(day) \(time)" : String(time))
  }

  /// A collapsed block of JSON under a title.
  static func details(_ title: String, _ value: JSONValue) -> String {
    "<details><summary>\(esc(title))</summary><pre class=\"json\">\(json(value))</pre></details>"
  }

  /// Indented JSON, escaped; the members and elements at `marks` (paths from the root)
  /// wrapped in `<mark>`.
  static func json(_ value: JSONValue, marks: Set<JSONDiff.Path> = [], path: JSONDiff.Path = [], indent: String = "")
    -> String
  {
    let body: String
    switch value {
    case .array(let items) where !items.isEmpty:
      let inner = indent + "  "
      body =
        "[\n"
        + items.enumerated().map { i, item in
          let element = json(item, marks: marks, path: path + [String(i)], indent: inner)
          return inner + (marks.contains(path + [String(i)]) ? "<mark>\(element)</mark>" : element)
        }.joined(separator: ",\n") + "\n" + indent + "]"
    case .object(let members) where !members.isEmpty:
      let inner = indent + "  "
      body =
        "{\n"
        + members.map { m in
          let key =
            "<span class=\"key\">" + esc(String(decoding: JSONValue.string(m.name).encoded(), as: UTF8.self))
            + "</span>: "
          let member = key + json(m.value, marks: marks, path: path + [m.name], indent: inner)
          return inner + (marks.contains(path + [m.name]) ? "<mark>\(member)</mark>" : member)
        }.joined(separator: ",\n") + "\n" + indent + "}"
    default:
      let text = esc(String(decoding: value.encoded(), as: UTF8.self))
      body = value.stringValue != nil ? "<span class=\"str\" dir=\"auto\">\(text)</span>" : text
    }
    return path.isEmpty && marks.contains([]) ? "<mark>\(body)</mark>" : body
  }
}
