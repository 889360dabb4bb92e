import JSONRPC

/// Notifications drawn as a phone shows them: banners with app, title, subtitle, body,
/// action buttons and the text-input field; the lock screen's thread stacks with their
/// summary line; the app icon with its badge.
extension HTMLReport {
  /// A notification card.  `actions` are the notification's actions as shown (the
  /// category's at delivery time); a text-input action also draws its reply field.
  func card(content c: JSONValue, app: String, actions: [JSONValue], time: String, extra: String = "") -> String {
    var html = "<div class=\"banner\">"
    html +=
      "<div class=\"bhead\"><span class=\"icon\">\(Self.esc(String(app.split(separator: ".").last?.prefix(1).uppercased() ?? "?")))</span>"
    html += "<span class=\"appname\">\(Self.esc(app))</span>\(extra)<time>\(Self.esc(time))</time></div>"
    for (field, cls) in [("title", "btitle"), ("subtitle", "bsub"), ("body", "bbody")] {
      if let text = c[field]?.stringValue, !text.isEmpty {
        html += "<div class=\"\(cls)\" dir=\"auto\">\(Self.esc(text))</div>"
      }
    }
    if let n = c["badge"]?.intValue { html += "<div class=\"dim small\">badge → \(n)</div>" }
    if !actions.isEmpty {
      html += "<div class=\"actions\">"
      for a in actions {
        let options = a["options"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let cls = options.map { "opt-\($0)" }.joined(separator: " ")
        let lock = options.contains("authenticationRequired") ? Self.lockIcon : ""
        html +=
          "<span class=\"action \(Self.esc(cls))\" dir=\"auto\" title=\"\(Self.esc(a["identifier"]?.stringValue ?? ""))\">"
        html += lock + Self.esc(a["title"]?.stringValue ?? "") + "</span>"
      }
      html += "</div>"
      for a in actions {
        guard let input = a["textInput"] else { continue }
        html +=
          "<div class=\"textinput\"><span class=\"field\" dir=\"auto\">\(Self.esc(input["placeholder"]?.stringValue ?? ""))</span>"
        html += "<span class=\"send\" dir=\"auto\">\(Self.esc(input["buttonTitle"]?.stringValue ?? ""))</span></div>"
      }
    }
    return html + "</div>"
  }

  /// The padlock iOS puts on an `authenticationRequired` action, drawn inline so it
  /// needs no emoji font.
  static let lockIcon =
    "<svg class=\"lock\" width=\"9\" height=\"12\" viewBox=\"0 0 9 12\" aria-label=\"requires unlocking\">"
    + "<path d=\"M2 5V3.5a2.5 2.5 0 0 1 5 0V5\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.4\"/>"
    + "<rect x=\"0.5\" y=\"5\" width=\"8\" height=\"6.5\" rx=\"1.2\" fill=\"currentColor\"/></svg> "

  /// A delivered notification (`{identifier, date, request: {content}, actions}`).
  func card(notification n: JSONValue, app: String, extra: String = "") -> String {
    card(
      content: n["request"]?["content"] ?? .object([]), app: app, actions: n["actions"]?.arrayValue ?? [],
      time: Self.clockText(n["date"]?.stringValue ?? ""), extra: extra)
  }

  /// A callback as the receiving connection got it.
  func callback(_ cb: Delivery) -> String {
    let p = cb.params
    var html =
      "<div class=\"cb cb-\(Self.esc(cb.method))\"><p class=\"to\"><b>\(Self.esc(cb.alias))</b> ← <code>\(Self.esc(cb.method))</code>"
    switch cb.method {
    case "present":
      let how = p["presentation"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ", ") ?? ""
      html += " <span class=\"dim\">[\(Self.esc(how))]</span></p>"
      html += card(notification: p["notification"] ?? .null, app: cb.appId)
    case "didReceive":
      html += " <span class=\"dim\">(content extension, expanded)</span></p>"
      html += card(
        notification: p["notification"] ?? .null, app: cb.appId, extra: "<span class=\"tag\">extension</span>")
    case "receive", "didReceiveResponse":
      let r = p["response"] ?? .null
      html +=
        "</p><div class=\"response\">action <span class=\"pill\" dir=\"auto\">\(Self.esc(r["actionIdentifier"]?.stringValue ?? "?"))</span>"
      if let text = r["userText"]?.stringValue {
        html += " <span class=\"bubble\" dir=\"auto\">\(Self.esc(text))</span>"
      }
      let title = r["notification"]?["request"]?["content"]?["title"]?.stringValue ?? ""
      html +=
        " on <code>\(Self.esc(r["notification"]?["identifier"]?.stringValue ?? "?"))</code> <span dir=\"auto\">\(Self.esc(title))</span>"
      if let deadline = p["deadline"]?.stringValue {
        html += " <span class=\"dim\">complete by \(Self.clockText(deadline))</span>"
      }
      html += "</div>"
    case "modifyContent":
      let deadline = p["deadline"]?.stringValue.map { " · complete by \(Self.clockText($0))" } ?? ""
      html += " <span class=\"dim\">(service extension\(deadline))</span></p>"
      html += card(
        content: p["request"]?["content"] ?? .null, app: cb.appId, actions: [], time: "",
        extra: "<span class=\"tag\">to modify</span>")
    case "interaction":
      html += "</p><div class=\"response\">control <code>\(Self.esc(p["control"]?.stringValue ?? "?"))</code> = "
      html += "<span class=\"pill\">\(Self.esc(PrettyJSON.text(p["value"] ?? .null)))</span></div>"
    default:
      html += "</p>"
    }
    html += Self.details("params", p)
    return html + "</div>"
  }

  /// The events observers got during a step, one compact line each, per observer.
  func events(_ events: [Delivery]) -> String {
    guard !events.isEmpty else { return "" }
    var html = ""
    var aliases: [String] = []
    for e in events where !aliases.contains(e.alias) { aliases.append(e.alias) }
    for alias in aliases {
      html +=
        "<div class=\"cb cb-event\"><p class=\"to\"><b>\(Self.esc(alias))</b> ← <code>event</code></p><ul class=\"events\">"
      for e in events where e.alias == alias {
        let p = e.params
        html += "<li><span class=\"etype\">\(Self.esc(p["type"]?.stringValue ?? "?"))</span> "
        html +=
          "<code>\(Self.esc(p["identifier"]?.stringValue ?? ""))</code> <span class=\"dim\">\(Self.esc(p["app"]?.stringValue ?? ""))</span>"
        html += Self.details("fields", p) + "</li>"
      }
      html += "</ul></div>"
    }
    return html
  }

  /// The apps' lock screens after a step: the badge on the app icon, then each thread's
  /// stack (the newest notification on top, the others behind it) with its summary.
  func phones(_ screens: [AppScreen], clock: String) -> String {
    var html = "<div class=\"phones\">"
    for s in screens {
      html += "<div class=\"phone\"><div class=\"statusbar\"><time>\(Self.clockText(clock))</time></div>"
      html +=
        "<div class=\"home\"><span class=\"appicon\">\(Self.esc(String(s.appId.split(separator: ".").last?.prefix(1).uppercased() ?? "?")))"
      if s.badge > 0 { html += "<span class=\"badge\">\(s.badge)</span>" }
      html += "</span><span class=\"appid\">\(Self.esc(s.appId))</span></div>"
      if s.groups.isEmpty { html += "<p class=\"empty\">no notifications</p>" }
      for g in s.groups {
        let notes = g["notifications"]?.arrayValue ?? []
        let count = g["count"]?.intValue ?? notes.count
        html +=
          "<div class=\"stack\" data-thread=\"\(Self.esc(g["threadIdentifier"]?.stringValue ?? ""))\" data-count=\"\(count)\">"
        if let top = notes.first { html += card(notification: top, app: s.appId) }
        for _ in 0..<min(max(count - 1, 0), 2) { html += "<div class=\"layer\"></div>" }
        if let summary = g["summary"]?.stringValue, !summary.isEmpty, count > 1 {
          html += "<div class=\"summary\" dir=\"auto\">\(Self.esc(summary))</div>"
        }
        html += "</div>"
      }
      html += "</div>"
    }
    return html + "</div>"
  }
}
