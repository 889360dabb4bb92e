import Foundation
import JSONRPC
import XCTest

/// Exit statuses: 0 ok, 1 JSON-RPC error, 2 usage, 3 cannot connect; --help everywhere.
final class ExitCodeTests: UnctlTestCase {
  static let commands = [
    "call", "ping", "categories", "schedule", "pending", "delivered", "respond", "badge", "auth", "advance",
    "watch", "wait", "stats", "push", "run", "strings",
  ]

  func testHelpOnEveryCommandExitsZero() throws {
    for command in Self.commands {
      for flag in ["--help", "-h"] {
        let r = try unctl([command, flag])
        XCTAssertEqual(r.status, 0, "\(command) \(flag): \(r.stderr)")
        XCTAssertTrue(r.stdout.contains("usage: unctl"), "\(command) \(flag): \(r.stdout)")
        XCTAssertTrue(r.stdout.contains(command), "\(command) \(flag)")
      }
    }
    for args in [
      ["--help"], ["-h"], ["help"], ["help", "wait"], ["categories", "set", "--help"], ["auth", "request", "--help"],
    ] {
      let r = try unctl(args)
      XCTAssertEqual(r.status, 0, "\(args)")
      XCTAssertTrue(r.stdout.contains("usage: unctl"), "\(args)")
    }
  }

  func testHelpNeedsNoDaemon() throws {
    let r = try unctl(["--socket", scratch + "/none.sock", "schedule", "--help"])
    XCTAssertEqual(r.status, 0)
    XCTAssertTrue(r.stdout.contains("--summary-argument"))
  }

  func testUsageErrorsExitTwoWithUsage() throws {
    let cases: [[String]] = [
      [],
      ["frobnicate"],
      ["--bogus", "ping"],
      ["--socket"],
      ["ping", "extra"],
      ["call"],
      ["call", "ping", "{not json"],
      ["schedule", "--id", "x"],
      ["schedule", "--id", "x", "--in", "60", "--now"],
      ["schedule", "--id", "x", "--now", "--repeat"],
      ["schedule", "--in", "60"],
      ["schedule", "--id", "x", "--now", "--bogus"],
      ["schedule", "--id", "x", "--now", "--user-info", "[1]"],
      ["schedule", "--id", "x", "--in"],
      ["schedule", "--id", "x", "--in", "soon"],
      ["pending", "--limit", "0"],
      ["respond", "n1"],
      ["respond", "n1", "--default", "--dismiss"],
      ["badge", "many"],
      ["auth", "answer", "maybe"],
      ["auth", "frob"],
      ["advance"],
      ["advance", "later"],
      ["wait", "--event", "fired"],
      ["wait", "--timeout", "1"],
      ["wait", "--event", "fired", "--timeout", "1", "--field", "noequals"],
      ["categories", "set"],
      ["categories", "set", "/nonexistent/file.json"],
      ["push"],
      ["watch", "--app"],
    ]
    for args in cases {
      let r = try unctl(["--socket", socket] + args)
      XCTAssertEqual(r.status, 2, "\(args): \(r.stdout) \(r.stderr)")
      XCTAssertTrue(r.stderr.contains("unctl: "), "\(args): \(r.stderr)")
      XCTAssertTrue(r.stderr.contains("usage: unctl"), "\(args): \(r.stderr)")
    }
  }

  func testBadJSONFilesAreUsageErrors() throws {
    let notJSON = scratchFile("bad.json", contents: "{nope")
    let notArray = scratchFile("obj.json", contents: #"{"identifier": "x"}"#)
    let notObject = scratchFile("arr.apns", contents: "[1, 2]")
    for args in [["categories", "set", notJSON], ["categories", "set", notArray]] {
      let r = try unctl(["--socket", socket] + args + ["--app", "a"])
      XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
    }
    // A payload file that cannot be used is a data error (4), not a usage error.
    for args in [["push", notObject], ["push", notJSON]] {
      let r = try unctl(["--socket", socket] + args + ["--app", "a"])
      XCTAssertEqual(r.status, 4, "\(args): \(r.stderr)")
      XCTAssertFalse(r.stderr.contains("usage:"), r.stderr)
    }
  }

  func testCannotConnectExitsThreeNamingTheSocket() throws {
    let missing = scratch + "/missing.sock"
    for args in [["ping"], ["pending", "--app", "a"], ["watch"], ["wait", "--event", "fired", "--timeout", "1"]] {
      let r = try unctl(["--socket", missing] + args)
      XCTAssertEqual(r.status, 3, "\(args)")
      XCTAssertTrue(r.stderr.contains("cannot connect to \(missing)"), r.stderr)
    }
    let fromEnv = try unctl(["ping"], environment: ["UNCENTER_SOCKET": missing])
    XCTAssertEqual(fromEnv.status, 3)
    XCTAssertTrue(fromEnv.stderr.contains(missing), fromEnv.stderr)
  }

  func testSocketFromEnvironment() throws {
    let r = try unctl(["ping"], environment: ["UNCENTER_SOCKET": socket])
    XCTAssertEqual(r.status, 0, r.stderr)
  }

  func testRPCErrorExitsOneWithTheErrorObjectAsJSON() throws {
    let r = try run("call", "noSuchMethod")
    XCTAssertEqual(r.status, 1)
    let error = try parseJSON(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
    XCTAssertEqual(error["code"]?.intValue, -32601)
    XCTAssertTrue(error["message"]?.stringValue?.contains("noSuchMethod") == true)
    XCTAssertEqual(r.stdout, "")
  }

  func testRPCErrorForPeopleShowsCodeMessageAndData() throws {
    let r = try run("--human", "schedule", "--app", "a", "--id", "r", "--in", "10", "--repeat")
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.contains("error -32008: "), r.stderr)
    XCTAssertTrue(r.stderr.contains("invalidTrigger"), r.stderr)
  }

  func testAppScopedCommandWithoutAppIsAnRPCError() throws {
    let r = try run("pending")
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(try parseJSON(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))["code"]?.intValue, -32000)
  }
}
