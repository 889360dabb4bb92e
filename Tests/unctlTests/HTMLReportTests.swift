import Foundation
import XCTest

/// `unctl run --html`: the report of the seeds' scenarios opened in headless Chromium.
final class HTMLReportTests: UnctlTestCase {
  /// The repository: three levels above this file.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The repository's scenarios and the report examples (Arabic text, a failure).
  func seedScenarios() throws -> [String] {
    var files: [String] = []
    for dir in ["Tests/Scenarios", "docs/report"] {
      let url = Self.root.appendingPathComponent(dir)
      files += try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".json") }.sorted()
        .map { url.appendingPathComponent($0).path }
    }
    return files
  }

  /// Writes the report of `files` plus a scenario full of markup; returns its path and the
  /// run's output.
  func report(_ files: [String]) throws -> (String, RunResult) {
    let hostile = scratchFile(
      "hostile.json",
      contents: """
        {"name": "<script>document.title='pwned'</script> & <b>bold</b>", "clock": "2026-01-01T08:00:00Z",
         "apps": {"a": {"appId": "com.example.<i>x</i>", "hello": {"role": "app", "foreground": true}}},
         "steps": [{"as": "a", "call": "scheduleLocal",
                    "params": {"identifier": "\\"'><img src=x onerror=alert(1)>",
                               "content": {"title": "<img src=x onerror=alert(2)>", "body": "</pre></div><script>alert(3)</script>"},
                               "trigger": null}},
                   {"expectCallback": {"to": "a", "method": "present"}}]}
        """)
    let html = scratch + "/report.html"
    let r = try unctl(["run", "-j", "2", "--html", html] + files + [hostile])
    return (html, r)
  }

  func testTheReportOpensInChromiumWithEveryStepAndNoConsoleErrors() throws {
    let chromium = try Chromium.find()
    let files = try seedScenarios()
    let (html, run) = try report(files)
    XCTAssertEqual(run.status, 1, "docs/report/italian-summary-fails.json fails on purpose: \(run.stderr)")
    let text = try String(contentsOfFile: html, encoding: .utf8)
    // Self-contained: nothing to fetch.
    let outside = try NSRegularExpression(
      pattern: #"<[a-zA-Z][^>]*\s(src|href|action)\s*=\s*"(?!#)|<link|@import|url\("#)
    let hits = outside.matches(in: text, range: NSRange(text.startIndex..., in: text))
    XCTAssertEqual(
      hits.map { (text as NSString).substring(with: $0.range) }, [], "the report refers to something outside it")

    let dom = try chromium.run(URL(fileURLWithPath: html), ["--dump-dom"], scratch: scratch)
    XCTAssertEqual(dom.status, 0, dom.stderr)
    XCTAssertEqual(dom.console, [], "console messages")
    XCTAssertTrue(dom.stdout.contains("</html>"), "the DOM was dumped")
    XCTAssertTrue(
      dom.stdout.contains("<title>unctl run: \(files.count) passed, 1 failed</title>"),
      "title untouched by the hostile scenario")

    // Every scenario has its section, every step its element, in every scenario.
    for (i, file) in (files + [scratch + "/hostile.json"]).enumerated() {
      let steps = try parseJSON(String(contentsOfFile: file, encoding: .utf8))["steps"]?.arrayValue?.count ?? 0
      XCTAssertTrue(dom.stdout.contains("id=\"sc-\(i + 1)\""), file)
      for n in 1...max(steps, 1) {
        XCTAssertTrue(dom.stdout.contains("id=\"sc-\(i + 1)-step-\(n)\""), "\(file) step \(n)")
      }
    }
    // The seeds' examples: Polish actions with a text reply, Italian thread summary,
    // Arabic payment controls; text in dir="auto" so Arabic reads right to left.
    for fragment in [
      "<span class=\"field\" dir=\"auto\">Wpisz wiadomość...</span><span class=\"send\" dir=\"auto\">Wyślij</span>",
      "<div class=\"summary\" dir=\"auto\">6 altri messaggi da Alice and me</div>",
      "<div class=\"btitle\" dir=\"auto\">دفعة مستحقة</div>",
      "<span class=\"action opt-foreground\" dir=\"auto\" title=\"payInApp\">الدفع في التطبيق</span>",
      "<span class=\"bubble\" dir=\"auto\">Dobrze!</span>",
      "<span class=\"badge\">5</span>",
      "control <code>segmentCustom</code>",
    ] {
      XCTAssertTrue(dom.stdout.contains(fragment), fragment)
    }
    // The failure: expected and actual side by side, the differing key marked on both.
    XCTAssertTrue(dom.stdout.contains("differs from the expected subset at result.groups[0].summary"))
    let marked = dom.stdout.components(separatedBy: "<mark><span class=\"key\">\"summary\"</span>").count - 1
    XCTAssertEqual(marked, 2, "marked in expected and in actual")
    // Markup from a scenario stays text.
    XCTAssertFalse(dom.stdout.contains("<img"), "no element from the hostile scenario")
    XCTAssertFalse(dom.stdout.contains("<b>bold</b>"))
    XCTAssertTrue(
      dom.stdout.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;"))

    let png = scratch + "/report.png"
    let shot = try chromium.run(
      URL(fileURLWithPath: html), ["--screenshot=\(png)", "--window-size=1280,2400"], scratch: scratch)
    XCTAssertEqual(shot.console, [])
    let size = (try? FileManager.default.attributesOfItem(atPath: png)[.size] as? Int) ?? 0
    XCTAssertGreaterThan(size, 20_000, "a screenshot with something drawn: \(shot.stderr)")
    // UNCTL_REPORT_SCREENSHOTS=DIR keeps the report and its screenshot for a person to look at.
    if let keep = ProcessInfo.processInfo.environment["UNCTL_REPORT_SCREENSHOTS"], !keep.isEmpty {
      try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
      for (from, to) in [(png, "report.png"), (html, "report.html")] {
        try? FileManager.default.removeItem(atPath: keep + "/" + to)
        try FileManager.default.copyItem(atPath: from, toPath: keep + "/" + to)
      }
    }
  }

  /// The console check above is only worth something if it sees errors: a page that
  /// throws must show up in it.
  func testTheConsoleCheckCatchesAPageError() throws {
    let chromium = try Chromium.find()
    let page = scratchFile("broken.html", contents: "<!DOCTYPE html><p>x</p><script>undefinedFunction()</script>")
    let dom = try chromium.run(URL(fileURLWithPath: page), ["--dump-dom"], scratch: scratch)
    XCTAssertTrue(dom.console.contains { $0.contains("undefinedFunction is not defined") }, dom.stderr)
  }
}
