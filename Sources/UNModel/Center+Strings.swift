extension Center {
  /// `registerLocalizedStrings`: replaces the app's whole table (as `registerCategories`
  /// replaces its categories), the `Localizable.strings` an iOS app ships.
  public func registerLocalizedStrings(app appId: String, _ strings: [ExactKey: String]) -> Int {
    withApp(appId) { $0.localizedStrings = strings }
    return strings.count
  }

  public func localizedStrings(app appId: String) -> [ExactKey: String] { apps[appId]?.localizedStrings ?? [:] }

  /// The alert text of a push whose alert names `loc-key`s, resolved as iOS does when it
  /// shows it: the app's format for the key (the key itself when it has none), with the
  /// arguments substituted.  A resolved part replaces the literal one.
  func localize(_ content: Content, _ alert: LocalizedAlert?, app appId: String) -> Content {
    guard let alert else { return content }
    let table = apps[appId]?.localizedStrings ?? [:]
    func text(_ part: (key: String, args: [String])) -> String {
      Self.format(table[part.key] ?? part.key, part.args)
    }
    var c = content
    if let t = alert.title { c.title = text(t) }
    if let s = alert.subtitle { c.subtitle = text(s) }
    if let b = alert.body { c.body = text(b) }
    return c
  }

  /// `String(format:)` for the specifiers a notification's format uses with string
  /// arguments: `%@` (the next argument), `%n$@` (the n-th), `%%`.  A missing argument
  /// reads as empty; anything else is copied as it is.
  public static func format(_ format: String, _ args: [String]) -> String {
    var out = ""
    var next = 0
    var i = format.startIndex
    while i < format.endIndex {
      let ch = format[i]
      guard ch == "%" else {
        out.append(ch)
        i = format.index(after: i)
        continue
      }
      let rest = format[format.index(after: i)...]
      if rest.hasPrefix("%") {
        out.append("%")
        i = format.index(i, offsetBy: 2)
      } else if rest.hasPrefix("@") {
        if next < args.count { out += args[next] }
        next += 1
        i = format.index(i, offsetBy: 2)
      } else if let dollar = rest.firstIndex(of: "$"), let n = Int(rest[rest.startIndex..<dollar]), n >= 1,
        rest[dollar...].dropFirst().hasPrefix("@")
      {
        if n <= args.count { out += args[n - 1] }
        i = format.index(dollar, offsetBy: 2)
      } else {
        out.append(ch)
        i = format.index(after: i)
      }
    }
    return out
  }
}
