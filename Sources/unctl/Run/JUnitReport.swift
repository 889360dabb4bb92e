import Foundation

/// The JUnit XML CI systems read: one `<testsuite>` per run (named after the shard when
/// there is one, so merged files stay apart), one `<testcase>` per scenario.
enum JUnitReport {
  static func write(_ records: [ScenarioRecord], shard: Shard?, to path: String) throws {
    let failed = records.filter { !$0.passed }.count
    let suite = "unctl run" + (shard.map { " (shard \($0.index)/\($0.count))" } ?? "")
    let total = records.reduce(0) { $0 + $1.seconds }
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<testsuite name=\"\(esc(suite))\" tests=\"\(records.count)\" failures=\"\(failed)\""
    xml += " time=\"\(String(format: "%.3f", total))\">\n"
    for r in records {
      xml +=
        "  <testcase classname=\"\(esc(r.file))\" name=\"\(esc(r.name))\" time=\"\(String(format: "%.3f", r.seconds))\""
      if r.passed {
        xml += "/>\n"
      } else {
        let headline = r.failures[0].split(separator: "\n").first.map(String.init) ?? ""
        xml += ">\n    <failure message=\"\(esc(headline))\">"
        xml += esc(r.failures.joined(separator: "\n")) + "</failure>\n  </testcase>\n"
      }
    }
    xml += "</testsuite>\n"
    try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
  }

  /// XML text and attribute escaping; control characters XML 1.0 forbids become U+FFFD.
  static func esc(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
      switch u {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\n", "\t", "\r": out.unicodeScalars.append(u)
      case _ where u.value < 0x20: out += "\u{FFFD}"
      default: out.unicodeScalars.append(u)
      }
    }
    return out
  }
}
