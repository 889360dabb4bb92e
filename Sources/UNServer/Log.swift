import Foundation

/// One logfmt line per event on stderr: `level=info event=listening socket=/run/u.sock`.
/// Values with spaces, quotes or `=` are quoted.  Writes go straight to fd 2 with one
/// `write(2)` per line, so lines never interleave.
public struct Log: Sendable {
  public var level: LogLevel

  public init(level: LogLevel) { self.level = level }

  public func debug(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.debug, event, fields) }
  public func info(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.info, event, fields) }
  public func warn(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.warn, event, fields) }
  public func error(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.error, event, fields) }

  public func emit(_ at: LogLevel, _ event: String, _ fields: KeyValuePairs<String, String>) {
    guard at >= level else { return }
    var line = "level=\(at.rawValue) event=\(event)"
    for (k, v) in fields { line += " \(k)=\(Self.quote(v))" }
    line += "\n"
    var bytes = Array(line.utf8)
    bytes.withUnsafeMutableBytes { _ = Foundation.write(2, $0.baseAddress, $0.count) }
  }

  static func quote(_ v: String) -> String {
    let plain = !v.isEmpty && v.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0.value < 0x7f }
    if plain { return v }
    var out = "\""
    for s in v.unicodeScalars {
      switch s {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(s)
      }
    }
    return out + "\""
  }
}
