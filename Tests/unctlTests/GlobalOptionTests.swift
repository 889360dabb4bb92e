import Foundation
import JSONRPC
import XCTest

/// `--socket`, `--json` and `--human` work before the command and anywhere after it.
final class GlobalOptionTests: UnctlTestCase {
  func testHumanAndJSONAfterTheCommand() throws {
    try run("schedule", "--app", "a", "--id", "p1", "--title", "Hi", "--in", "60")
    let human = try unctl(["pending", "--human", "--app", "a", "--socket", socket])
    XCTAssertEqual(human.status, 0, human.stderr)
    XCTAssertTrue(human.stdout.hasPrefix("IDENTIFIER"), human.stdout)
    XCTAssertTrue(human.stdout.contains("p1 "), human.stdout)

    let json = try unctl(["pending", "--app", "a", "--socket=\(socket)", "--json"])
    XCTAssertEqual(json.status, 0, json.stderr)
    XCTAssertEqual(try parseJSON(json.stdout)["requests"]?[0]?["identifier"]?.stringValue, "p1")

    let middle = try unctl(["--human", "badge", "--socket", socket, "3", "--app", "a"])
    XCTAssertEqual(middle.status, 0, middle.stderr)
    XCTAssertEqual(middle.stdout, "3\n")
  }

  func testSocketAfterTheCommandIsTheOneUsed() throws {
    let missing = scratch + "/missing.sock"
    let r = try unctl(["ping", "--socket", missing], environment: ["UNCENTER_SOCKET": socket])
    XCTAssertEqual(r.status, 3, r.stderr)
    XCTAssertTrue(r.stderr.contains("cannot connect to \(missing)"), r.stderr)
    let ok = try unctl(["ping", "--socket", socket], environment: ["UNCENTER_SOCKET": missing])
    XCTAssertEqual(ok.status, 0, ok.stderr)
  }

  func testACommandOptionsValueIsNotTakenForAGlobalOption() throws {
    try run("schedule", "--app", "a", "--id", "t1", "--title", "--json", "--now")
    let delivered = try run("delivered", "--app", "a").json()
    XCTAssertEqual(delivered["notifications"]?[0]?["request"]?["content"]?["title"]?.stringValue, "--json")
  }

  func testNothingAfterDoubleDashIsAGlobalOption() throws {
    let r = try unctl(["--socket", socket, "ping", "--", "--human"])
    XCTAssertEqual(r.status, 2, r.stdout)
    XCTAssertTrue(r.stderr.contains("unexpected argument '--human'"), r.stderr)
  }

  func testSocketWithoutAPathAfterTheCommandIsAUsageError() throws {
    let r = try unctl(["ping", "--socket"])
    XCTAssertEqual(r.status, 2)
    XCTAssertTrue(r.stderr.contains("--socket needs a path"), r.stderr)
    XCTAssertTrue(r.stderr.contains("usage: unctl ping"), r.stderr)
  }
}
