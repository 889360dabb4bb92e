import Foundation
import JSONRPC

/// An app's localized strings from the files iOS projects keep them in: `.strings`
/// (`"key" = "format";`, UTF-8 or UTF-16), `.xcstrings` (Xcode's string catalog, one
/// language picked) and JSON (`{key: format}` or `{"strings": {...}}`).
enum StringsFile {
  struct DataError: Error {
    var message: String
  }

  static func load(_ file: String, language: String?) throws(DataError) -> [(String, String)] {
    guard
      let data = file == "-"
        ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
    else { throw DataError(message: "\(file): cannot read the file") }
    let lower = file.lowercased()
    if lower.hasSuffix(".strings") {
      var parser = StringsParser(text: decode(data))
      do throws(StringsParser.Failure) {
        return try parser.parse()
      } catch {
        throw DataError(message: "\(file):\(error.line): \(error.reason)")
      }
    }
    let value: JSONValue
    do {
      value = try JSONParser.parse(Array(data))
    } catch {
      throw DataError(message: "\(file): not valid JSON: \(error.reason)")
    }
    if lower.hasSuffix(".xcstrings") || value["sourceLanguage"] != nil {
      return try catalog(value, language: language, file: file)
    }
    let table = value["strings"] ?? value
    guard case .object(let members) = table else {
      throw DataError(message: "\(file): expected an object of key -> format, got \(table.typeName)")
    }
    var out: [(String, String)] = []
    for m in members {
      guard let format = m.value.stringValue else {
        throw DataError(message: "\(file): the value of '\(m.name)' must be a string, got \(m.value.typeName)")
      }
      out.append((m.name, format))
    }
    return out
  }

  /// Text with a UTF-16 byte-order mark (as Xcode long wrote `.strings`) or UTF-8.
  static func decode(_ data: Data) -> String {
    let b = Array(data.prefix(2))
    if b == [0xFF, 0xFE] {
      return String(data: data, encoding: .utf16LittleEndian).map { String($0.dropFirst()) } ?? ""
    }
    if b == [0xFE, 0xFF] { return String(data: data, encoding: .utf16BigEndian).map { String($0.dropFirst()) } ?? "" }
    let text = String(decoding: data, as: UTF8.self)
    return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
  }

  /// `{"sourceLanguage", "strings": {key: {"localizations": {lang: {"stringUnit": {"value"}}}}}}`;
  /// a plural variation uses its `other` form.  A key with no unit for the language is
  /// left out: the key itself is then the format, as Xcode's source strings are.
  static func catalog(_ value: JSONValue, language: String?, file: String) throws(DataError) -> [(String, String)] {
    guard let lang = language ?? value["sourceLanguage"]?.stringValue else {
      throw DataError(message: "\(file): no sourceLanguage; pass --language")
    }
    guard case .object(let entries)? = value["strings"] else {
      throw DataError(message: "\(file): no \"strings\" object")
    }
    var out: [(String, String)] = []
    for entry in entries {
      let localization = entry.value["localizations"]?[lang]
      let unit = localization?["stringUnit"] ?? localization?["variations"]?["plural"]?["other"]?["stringUnit"]
      if let format = unit?["value"]?.stringValue { out.append((entry.name, format)) }
    }
    return out
  }
}

/// The old-style property list of a `.strings` file: `"key" = "value";` pairs, with
/// `/* */` and `//` comments, `\"`, `\\`, `\n`, `\t`, `\r`, `\Uxxxx` escapes, and unquoted
/// keys made of letters, digits and `_.-`.
struct StringsParser {
  struct Failure: Error {
    var line: Int
    var reason: String
  }

  let scalars: [Unicode.Scalar]
  var i = 0

  init(text: String) { scalars = Array(text.unicodeScalars) }

  var line: Int { scalars[..<min(i, scalars.count)].filter { $0 == "\n" }.count + 1 }

  func fail(_ reason: String) -> Failure { Failure(line: line, reason: reason) }

  mutating func parse() throws(Failure) -> [(String, String)] {
    var out: [(String, String)] = []
    while true {
      try skip()
      guard i < scalars.count else { return out }
      let key = try token()
      try skip()
      guard i < scalars.count, scalars[i] == "=" else { throw fail("expected '=' after \"\(key)\"") }
      i += 1
      try skip()
      let value = try token()
      try skip()
      guard i < scalars.count, scalars[i] == ";" else { throw fail("expected ';' after the value of \"\(key)\"") }
      i += 1
      out.append((key, value))
    }
  }

  /// Whitespace and comments.
  mutating func skip() throws(Failure) {
    while i < scalars.count {
      let c = scalars[i]
      if c.properties.isWhitespace {
        i += 1
      } else if c == "/", i + 1 < scalars.count, scalars[i + 1] == "*" {
        i += 2
        while i + 1 < scalars.count, !(scalars[i] == "*" && scalars[i + 1] == "/") { i += 1 }
        guard i + 1 < scalars.count else { throw fail("unterminated comment") }
        i += 2
      } else if c == "/", i + 1 < scalars.count, scalars[i + 1] == "/" {
        while i < scalars.count, scalars[i] != "\n" { i += 1 }
      } else {
        return
      }
    }
  }

  mutating func token() throws(Failure) -> String {
    guard i < scalars.count else { throw fail("unexpected end of file") }
    guard scalars[i] == "\"" else {
      var s = ""
      while i < scalars.count,
        scalars[i].properties.isAlphabetic || ("0"..."9").contains(scalars[i])
          || "_.-$:/".unicodeScalars.contains(scalars[i])
      {
        s.unicodeScalars.append(scalars[i])
        i += 1
      }
      if s.isEmpty { throw fail("unexpected '\(scalars[i])'") }
      return s
    }
    i += 1
    var s = String.UnicodeScalarView()
    while i < scalars.count {
      let c = scalars[i]
      i += 1
      if c == "\"" { return String(s) }
      guard c == "\\" else {
        s.append(c)
        continue
      }
      guard i < scalars.count else { break }
      let e = scalars[i]
      i += 1
      switch e {
      case "n": s.append("\n")
      case "t": s.append("\t")
      case "r": s.append("\r")
      case "U", "u":
        let hex = String(String.UnicodeScalarView(scalars[i..<min(i + 4, scalars.count)]))
        guard hex.count == 4, let v = UInt32(hex, radix: 16), let u = Unicode.Scalar(v) else {
          throw fail("bad \\U escape")
        }
        s.append(u)
        i += 4
      default: s.append(e)
      }
    }
    throw fail("unterminated string")
  }
}
