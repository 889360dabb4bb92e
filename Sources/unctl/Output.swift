import Foundation
import JSONRPC

/// How results reach the user: one compact JSON line per result (`--json`, and the
/// default when standard output is not a terminal), or text for people, with a little
/// color only on a terminal and only when `NO_COLOR` is not set.
struct Output: Sendable {
  /// Machine output: the raw result JSON, one line.
  var json: Bool
  /// ANSI colors on standard output.
  var color: Bool
  /// ANSI colors on standard error.
  var errorColor: Bool

  static func detect(json jsonFlag: Bool, human humanFlag: Bool, environment: [String: String]) -> Output {
    let noColor = environment["NO_COLOR"] != nil || environment["TERM"] == "dumb"
    let outTTY = isatty(1) == 1
    let errTTY = isatty(2) == 1
    let json = jsonFlag || (!humanFlag && !outTTY)
    return Output(json: json, color: outTTY && !noColor, errorColor: errTTY && !noColor)
  }

  // MARK: styles

  func dim(_ s: String) -> String { color ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
  func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
  func yellow(_ s: String) -> String { color ? "\u{1B}[33m\(s)\u{1B}[0m" : s }
  func green(_ s: String) -> String { color ? "\u{1B}[32m\(s)\u{1B}[0m" : s }
  private func red(_ s: String) -> String { errorColor ? "\u{1B}[31m\(s)\u{1B}[0m" : s }

  // MARK: writing

  /// One line on standard output, flushed (watchers read it as it comes).
  func line(_ s: String) {
    print(s)
    fflush(nil)
  }

  /// A JSON value as one compact line.
  func jsonLine(_ value: JSONValue) { line(Self.compact(value)) }

  /// The result: compact JSON in machine mode, else what `human` writes.
  func result(_ value: JSONValue, human: () -> Void) {
    if json { jsonLine(value) } else { human() }
  }

  static func compact(_ value: JSONValue) -> String { String(decoding: value.encoded(), as: UTF8.self) }

  /// `unctl: message` on standard error.
  func message(_ s: String) {
    FileHandle.standardError.write(Data("unctl: \(s)\n".utf8))
  }

  /// A usage problem: the message, then the command's usage.
  func usageError(_ s: String, usage: String) {
    FileHandle.standardError.write(Data("unctl: \(red(s))\n\(usage)\n".utf8))
  }

  /// A JSON-RPC error: the error object (machine mode) or `error CODE: message` and the
  /// data, on standard error.
  func rpcError(_ e: RPCError) {
    if json {
      var members = [JSONMember("code", .int(e.code.rawValue)), JSONMember("message", .string(e.message))]
      if let data = e.data { members.append(JSONMember("data", data)) }
      FileHandle.standardError.write(Data((Self.compact(.object(members)) + "\n").utf8))
      return
    }
    var text = "unctl: " + red("error \(e.code.rawValue): \(e.message)") + "\n"
    if let data = e.data { text += "  data: " + Self.compact(data) + "\n" }
    if e.code == .noApp { text += "  hint: name the app with --app APP or the UNCENTER_APP environment variable\n" }
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// A failure that is not a JSON-RPC error (connection, timeout): red on a terminal.
  func failure(_ s: String) {
    FileHandle.standardError.write(Data("unctl: \(red(s))\n".utf8))
  }

  // MARK: tables

  /// Aligned columns with a (dim) header; cells longer than `maxWidth` are cut with "…".
  func table(_ headers: [String], _ rows: [[String]], maxWidth: Int = 40) {
    let cut = rows.map { $0.map { Self.truncate(Self.oneLine($0), maxWidth) } }
    var widths = headers.map(\.count)
    for row in cut {
      for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
    }
    func render(_ cells: [String]) -> String {
      var parts: [String] = []
      for (i, cell) in cells.enumerated() {
        let last = i == cells.count - 1
        parts.append(last ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0))
      }
      return parts.joined(separator: "  ")
    }
    line(dim(render(headers)))
    for row in cut { line(render(row)) }
  }

  static func truncate(_ s: String, _ width: Int) -> String {
    s.count <= width ? s : String(s.prefix(max(0, width - 1))) + "…"
  }

  static func oneLine(_ s: String) -> String {
    s.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
  }

  /// A value for a table cell or a `key=value`: strings as they are, the rest as JSON.
  static func text(_ value: JSONValue?) -> String {
    switch value {
    case nil, .null?: return "-"
    case .string(let s)?: return s
    case let v?: return compact(v)
    }
  }

  /// `key: value` lines for an object, nested objects with dotted keys.
  func keyValues(_ value: JSONValue, prefix: String = "") {
    guard case .object(let members) = value else {
      line(prefix.isEmpty ? Self.text(value) : "\(prefix): \(Self.text(value))")
      return
    }
    for m in members {
      let key = prefix.isEmpty ? m.name : prefix + "." + m.name
      if case .object(let inner) = m.value, !inner.isEmpty {
        keyValues(m.value, prefix: key)
      } else {
        line("\(dim(key + ":")) \(Self.text(m.value))")
      }
    }
  }
}
