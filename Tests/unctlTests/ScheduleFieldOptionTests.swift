import Foundation
import JSONRPC
import XCTest

/// `schedule --<field> VALUE` for the content's plain fields without an option of their
/// own: named and typed as the protocol's content table describes them.
final class ScheduleFieldOptionTests: UnctlTestCase {
  func testContentFieldsFromTheTableAreOptions() throws {
    let s = try run(
      "schedule", "--app", "chat", "--id", "f1", "--in", "60", "--title", "Hi", "--launchImageName", "splash",
      "--filterCriteria", "work", "--relevanceScore", "0.25", "--summaryArgumentCount", "3",
      "--targetContentIdentifier", "chat_1")
    XCTAssertEqual(s.status, 0, s.stderr)
    let content = try run("pending", "--app", "chat").json()["requests"]?[0]?["content"]
    XCTAssertEqual(content?["launchImageName"], .string("splash"))
    XCTAssertEqual(content?["filterCriteria"], .string("work"))
    XCTAssertEqual(content?["relevanceScore"], .double(0.25))
    XCTAssertEqual(content?["summaryArgumentCount"], .int(3))
    XCTAssertEqual(content?["targetContentIdentifier"], .string("chat_1"))
  }

  func testANumberFieldRefusesText() throws {
    let r = try run("schedule", "--app", "chat", "--id", "f2", "--now", "--summaryArgumentCount", "many")
    XCTAssertEqual(r.status, 2)
    XCTAssertTrue(r.stderr.contains("--summaryArgumentCount needs an integer, got 'many'"), r.stderr)
  }

  func testUsageListsTheFieldOptions() throws {
    let r = try run("schedule", "--help")
    XCTAssertEqual(r.status, 0)
    for option in ["--launchImageName", "--filterCriteria", "--relevanceScore"] {
      XCTAssertTrue(r.stdout.contains(option), "\(option) missing from: \(r.stdout)")
    }
  }
}
