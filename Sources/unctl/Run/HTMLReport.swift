import Foundation
import JSONRPC

/// `unctl run --html FILE`: one self-contained page (inline CSS and a few lines of
/// script, nothing fetched, works from file://) showing per scenario what the user would
/// have seen: the steps on the manual clock's timeline, each notification drawn as a
/// phone shows it, the callbacks each app got, the user's responses, and for a failure
/// the expected and actual values side by side with the differing keys marked.  Every
/// string from a scenario or the daemon is escaped; text carries `dir="auto"` so Arabic
/// reads right to left beside Polish and Italian.
struct HTMLReport {
  var records: [ScenarioRecord]
  var generated = Date()

  func write(to path: String) throws {
    try Data(document().utf8).write(to: URL(fileURLWithPath: path))
  }

  func document() -> String {
    let failed = records.filter { !$0.passed }.count
    let stamp = ISO8601DateFormatter().string(from: generated)
    var html = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>unctl run: \(records.count - failed) passed, \(failed) failed</title>
      <style>\(Self.css)</style></head>
      <body>
      <header><h1>Scenario report</h1>
      <p class="totals"><span class="chip pass">\(records.count - failed) passed</span> <span class="chip fail">\(failed) failed</span>
      <span class="dim">\(records.count) scenarios · \(Self.esc(stamp))</span>
      <label class="filter"><input type="checkbox" id="only-failed"> failures only</label></p>
      <nav><ol>
      """
    for (i, r) in records.enumerated() {
      html += "<li class=\"\(r.passed ? "passed" : "failed")\"><a href=\"#sc-\(i + 1)\">"
      html += "<span class=\"chip \(r.passed ? "pass" : "fail")\">\(r.passed ? "PASS" : "FAIL")</span> "
      html += "<bdi>\(Self.esc(r.name))</bdi></a></li>\n"
    }
    html += "</ol></nav></header>\n<main>\n"
    for (i, r) in records.enumerated() { html += section(r, id: "sc-\(i + 1)") }
    html += "</main>\n<script>\(Self.script)</script>\n</body></html>\n"
    return html
  }

  /// One scenario: headline, apps, failures, then the timeline of steps.
  func section(_ r: ScenarioRecord, id: String) -> String {
    let status = r.passed ? "passed" : "failed"
    var html = "<section class=\"scenario \(status)\" id=\"\(id)\" data-status=\"\(status)\">\n"
    html += "<h2><span class=\"chip \(r.passed ? "pass" : "fail")\">\(r.passed ? "PASS" : "FAIL")</span> "
    html += "<bdi dir=\"auto\">\(Self.esc(r.name))</bdi></h2>\n"
    html += "<p class=\"meta\"><code>\(Self.esc(r.file))</code> · \(String(format: "%.2f", r.seconds)) s"
    if !r.clock.isEmpty { html += " · clock starts \(Self.clockText(r.clock, full: true))" }
    if r.timedOut { html += " · <b class=\"bad\">timed out</b>" }
    html += "</p>\n"
    if !r.apps.isEmpty {
      html += "<ul class=\"apps\">"
      for app in r.apps {
        html +=
          "<li><b>\(Self.esc(app.alias))</b> \(Self.esc(app.appId ?? "(no app)")) <span class=\"dim\">\(Self.esc(app.role))</span></li>"
      }
      html += "</ul>\n"
    }
    if !r.passed {
      html += "<div class=\"failures\">"
      // A step's failure is drawn in full at its step; here only its headline.
      for step in r.steps {
        if let f = step.failure {
          html += "<pre dir=\"auto\">step \(step.number) \(Self.esc(step.label)): \(Self.esc(Self.headline(f)))</pre>"
        }
      }
      for f in r.failures where !f.hasPrefix("step ") { html += "<pre dir=\"auto\">\(Self.esc(f))</pre>" }
      html += "</div>\n"
    }
    html += "<ol class=\"timeline\">\n"
    // The titles of the actions shown so far, to name the button the user pressed.
    var titles: [String: String] = [:]
    for step in r.steps {
      html += stepItem(step, id: id, titles: titles)
      Self.collectActionTitles(step, into: &titles)
    }
    html += "</ol>\n</section>\n"
    return html
  }

  /// One step: when (manual clock), what, how it went, what it brought.
  func stepItem(_ s: StepRecord, id: String, titles: [String: String] = [:]) -> String {
    var html = "<li class=\"step \(s.status.rawValue)\" id=\"\(id)-step-\(s.number)\" data-step=\"\(s.number)\">"
    html += "<div class=\"when\"><time title=\"\(Self.esc(s.clock))\">\(Self.clockText(s.clock))</time></div>"
    html += "<div class=\"what\"><p class=\"head\"><span class=\"num\">\(s.number)</span> "
    html += "<span class=\"label\">\(Self.esc(s.label))</span> "
    html +=
      "<span class=\"status\">\(["passed": "✓", "failed": "✗ failed", "notRun": "not run"][s.status.rawValue]!)</span></p>"
    html += stepBody(s, titles: titles)
    if let f = s.failure { html += failure(f) }
    if !s.callbacks.isEmpty {
      html += "<div class=\"callbacks\">"
      for cb in s.callbacks where cb.method != "event" { html += callback(cb) }
      html += events(s.callbacks.filter { $0.method == "event" })
      html += "</div>"
    }
    if let screens = s.screens { html += phones(screens, clock: s.clock) }
    html += "</div></li>\n"
    return html
  }

  /// What the step itself did, drawn by kind.
  func stepBody(_ s: StepRecord, titles: [String: String] = [:]) -> String {
    let step = s.step
    if step["advance"] != nil {
      let fired = s.actual?["fired"]?.arrayValue?.compactMap(\.stringValue) ?? []
      let more = (s.actual?["firedCount"]?.intValue).map { $0 - fired.count } ?? 0
      return "<p class=\"advance\">clock → \(Self.clockText(s.clock, full: true))"
        + (fired.isEmpty ? "" : " · fired " + fired.map { "<code>\(Self.esc($0))</code>" }.joined(separator: " "))
        + (more > 0 ? " and \(more) more" : "") + "</p>"
    }
    if let method = step["call"]?.stringValue {
      var html = ""
      let params = step["params"] ?? .object([])
      if method == "respond" { html += userResponse(params, titles: titles) }
      if method == "scheduleLocal", let content = params["content"] {
        html +=
          "<div class=\"scheduled\">"
          + card(content: content, app: step["as"]?.stringValue ?? "", actions: [], time: "scheduled") + "</div>"
      }
      html += Self.details("params", params)
      if let expect = step["expect"] { html += Self.details("expect (subset)", expect) }
      if let actual = s.actual { html += Self.details(actual["error"] != nil ? "error" : "result", actual) }
      return html
    }
    for kind in ["expectCallback", "expectEvent", "expectNoCallback"] {
      guard let e = step[kind] else { continue }
      var html = Self.details("expected", e)
      if let got = s.actual { html += Self.details("matched", got) }
      return html
    }
    return Self.details("step", step)
  }

  /// The user's answer to a notification (`respond`), as they would have given it.
  func userResponse(_ p: JSONValue, titles: [String: String] = [:]) -> String {
    let action = p["actionIdentifier"]?.stringValue ?? "?"
    let what: String
    switch action {
    case "com.apple.UNNotificationDefaultActionIdentifier": what = "tapped the notification"
    case "com.apple.UNNotificationDismissActionIdentifier": what = "dismissed it"
    default:
      what =
        "chose <span class=\"pill\" dir=\"auto\" title=\"\(Self.esc(action))\">\(Self.esc(titles[action] ?? action))</span>"
    }
    var html =
      "<div class=\"response\"><span class=\"who\">user</span> \(what) on <code>\(Self.esc(p["identifier"]?.stringValue ?? "?"))</code>"
    if let text = p["userText"]?.stringValue { html += " <span class=\"bubble\" dir=\"auto\">\(Self.esc(text))</span>" }
    if p["authenticated"]?.boolValue == true { html += " <span class=\"dim\">(authenticated)</span>" }
    return html + "</div>"
  }

  /// One line for a failed step: where the values differ, else the message's first line.
  static func headline(_ f: StepRecord.Failure) -> String {
    let first = f.message.split(separator: "\n").first.map(String.init) ?? ""
    guard let expected = f.expected, f.actual != nil else { return first }
    let paths = JSONDiff.paths(expected: expected, actual: f.actual).map(JSONDiff.text).sorted()
    let lead =
      first.hasPrefix("expected")
      ? "differs from the expected subset" : first.trimmingCharacters(in: .punctuationCharacters)
    return paths.isEmpty ? lead : "\(lead) at " + paths.joined(separator: ", ")
  }

  /// Action identifier → title, from the notifications a step's callbacks and screens show.
  static func collectActionTitles(_ s: StepRecord, into titles: inout [String: String]) {
    var notifications = s.callbacks.compactMap { $0.params["notification"] }
    for screen in s.screens ?? [] {
      for g in screen.groups { notifications += g["notifications"]?.arrayValue ?? [] }
    }
    for n in notifications {
      for a in n["actions"]?.arrayValue ?? [] {
        if let id = a["identifier"]?.stringValue, let title = a["title"]?.stringValue { titles[id] = title }
      }
    }
  }

  /// Expected and actual side by side, the keys that differ marked on both.
  func failure(_ f: StepRecord.Failure) -> String {
    var html = "<div class=\"failure\"><pre class=\"why\" dir=\"auto\">\(Self.esc(Self.headline(f)))</pre>"
    if f.expected != nil || f.actual != nil {
      let marks = f.expected.map { JSONDiff.paths(expected: $0, actual: f.actual) } ?? []
      html += "<div class=\"diff\"><div class=\"side expected\"><h4>expected (subset)</h4>"
      html +=
        f.expected.map { "<pre class=\"json\">\(Self.json($0, marks: marks))</pre>" } ?? "<p class=\"dim\">(none)</p>"
      html += "</div><div class=\"side actual\"><h4>actual</h4>"
      html +=
        f.actual.map { "<pre class=\"json\">\(Self.json($0, marks: marks))</pre>" }
        ?? "<p class=\"dim\">nothing came</p>"
      html += "</div></div>"
    }
    return html + "</div>"
  }
}
