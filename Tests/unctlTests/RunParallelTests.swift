import Foundation
import XCTest

/// `unctl run -j N`: scenarios side by side, each with its own daemon; failing, hanging
/// and crashing ones fail alone, and the output stays one block per scenario in order.
final class RunParallelTests: UnctlTestCase {
  func write(_ name: String, _ text: String) -> String { scratchFile(name, contents: text) }

  func testFailingHangingAndCrashingScenariosFailAloneAndTheOthersGoOn() throws {
    let standIn = write("uncenterd-stand-in", RunScenarioFiles.standIn(real: try Products.uncenterd.path))
    XCTAssertEqual(chmod(standIn, 0o755), 0)
    let files = [
      write("1-pass.json", RunScenarioFiles.passing("com.example.one", name: "first passes")),
      write("2-crash.json", RunScenarioFiles.waiting(clock: "2030-01-01T00:00:00Z", name: "daemon crashes")),
      write("3-hang.json", RunScenarioFiles.waiting(clock: "2031-01-01T00:00:00Z", name: "daemon hangs")),
      write("4-fail.json", RunScenarioFiles.failing),
      write("5-pass.json", RunScenarioFiles.passing("com.example.five", name: "last passes")),
    ]
    let junit = scratch + "/junit.xml"
    let r = try unctl(
      ["run", "-j", "2", "--timeout", "6", "--junit", junit] + files, environment: ["UNCENTERD": standIn])
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertTrue(r.stdout.hasSuffix("2 passed, 3 failed\n"), r.stdout)

    // One block per scenario, in the order the files were given.
    let heads = files.map { r.stdout.range(of: "scenario \($0):")?.lowerBound }
    XCTAssertFalse(heads.contains(nil), r.stdout)
    XCTAssertEqual(heads.compactMap { $0 }, heads.compactMap { $0 }.sorted(), r.stdout)
    let blocks = (0..<files.count).map { i in
      String(r.stdout[heads[i]!..<(i + 1 < files.count ? heads[i + 1]! : r.stdout.endIndex)])
    }
    XCTAssertTrue(blocks[0].contains("ok    3 expectCallback a present"), blocks[0])
    XCTAssertFalse(blocks[0].contains("FAIL"), blocks[0])
    XCTAssertTrue(blocks[1].contains("uncenterd was killed by signal 9"), blocks[1])
    XCTAssertTrue(blocks[1].contains("stand-in: simulated crash of the daemon"), "the log's tail: \(blocks[1])")
    XCTAssertTrue(blocks[2].contains("FAIL  timed out after 6 s (--timeout); its daemon was killed"), blocks[2])
    XCTAssertTrue(blocks[3].contains("FAIL  2 a → scheduleLocal"), blocks[3])
    XCTAssertTrue(blocks[3].contains("2026-01-01T09:00:05.000Z"), blocks[3])
    XCTAssertFalse(blocks[3].contains("3 advance"), "no step after the failure runs")
    XCTAssertFalse(blocks[4].contains("FAIL"), blocks[4])

    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    XCTAssertTrue(xml.contains("tests=\"5\" failures=\"3\""), xml)
    XCTAssertEqual(xml.components(separatedBy: "<testcase ").count - 1, 5)
    XCTAssertEqual(xml.components(separatedBy: "<failure ").count - 1, 3)
    XCTAssertTrue(xml.contains("timed out after 6 s"), xml)
    XCTAssertTrue(xml.contains("killed by signal 9"), xml)
  }

  func testEveryJobsSpellingRunsAndTheSummaryCoversAll() throws {
    let files = (1...4).map { write("p\($0).json", RunScenarioFiles.passing("com.example.p\($0)", name: "p\($0)")) }
    for spelling in [["-j", "3"], ["-j3"], ["--jobs", "3"], ["--jobs=3"], ["-j=3"], ["-j1"], []] {
      let r = try unctl(["run"] + spelling + files)
      XCTAssertEqual(r.status, 0, "\(spelling): \(r.stdout) \(r.stderr)")
      XCTAssertTrue(r.stdout.hasSuffix("4 passed, 0 failed\n"), "\(spelling): \(r.stdout)")
    }
    // Global options after the command keep working beside -j's value.
    let r = try unctl(["run", "-j", "2", "--json"] + files)
    XCTAssertEqual(r.status, 0, r.stderr)
    for (spelling, message) in [
      (["-j", "0"], "-j needs a whole number ≥ 1, got '0'"), (["--jobs", "x"], "--jobs needs a whole number ≥ 1"),
      (["-j"], "-j needs a value"), (["--timeout", "0"], "--timeout needs a number of seconds > 0"),
      (["--shard", "5/4"], "I must be between 1 and 4"), (["--frob"], "unknown option '--frob'"),
    ] {
      let r = try unctl(["run"] + spelling + (spelling == ["-j"] ? [] : files))
      XCTAssertEqual(r.status, 2, "\(spelling)")
      XCTAssertTrue(r.stderr.contains(message), "\(spelling): \(r.stderr)")
    }
  }

  /// Many daemons starting and stopping at once, from several threads: every scenario
  /// passes (a descriptor closed twice, or a process launch that is not thread-safe,
  /// shows up here as a scenario failing to connect or unctl crashing).
  func testManyScenariosSideBySideAllPass() throws {
    let files = (1...48).map { write("m\($0).json", RunScenarioFiles.passing("com.example.m\($0)", name: "m\($0)")) }
    let r = try unctl(["run", "-j", "6"] + files)
    XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    XCTAssertTrue(r.stdout.hasSuffix("48 passed, 0 failed\n"), r.stdout)
    for file in files { XCTAssertEqual(r.stdout.components(separatedBy: "scenario \(file):").count, 2, file) }
  }

  func testWithSocketJobsNeedDisjointApps() throws {
    let a = write("a.json", RunScenarioFiles.passing("com.example.same", name: "a"))
    let b = write("b.json", RunScenarioFiles.passing("com.example.same", name: "b"))
    let refused = try run("run", "-j", "2", a, b)
    XCTAssertEqual(refused.status, 2)
    XCTAssertTrue(
      refused.stderr.contains(
        "-j 2 with --socket needs scenarios whose apps are disjoint: app com.example.same is in both"),
      refused.stderr)
    // One at a time (the default with --socket) they are fine.
    let sequential = try run("run", a, b)
    XCTAssertEqual(sequential.status, 1, "both schedule at +5 s on one clock: the second's date is later")
    XCTAssertTrue(sequential.stdout.contains("1 passed, 1 failed"), sequential.stdout)
    let c = write("c.json", RunScenarioFiles.failing)
    let disjoint = try run("run", "-j", "2", a, c)
    XCTAssertFalse(disjoint.stderr.contains("disjoint"), disjoint.stderr)
    // The clock has moved on, so `a`'s dates no longer hold: what counts is that both ran.
    XCTAssertTrue(disjoint.stdout.contains("0 passed, 2 failed"), disjoint.stdout + disjoint.stderr)
    XCTAssertTrue(disjoint.stdout.contains("scenario \(c): wrong date"), disjoint.stdout)
  }

  func testListPrintsTheShardsFilesAndTheShardsCoverEveryFileOnce() throws {
    let files = (0..<60).map { "scenarios/s-\($0).json" }  // --list needs no file to exist
    var union: [String] = []
    for i in 1...4 {
      let r = try unctl(["run", "--shard", "\(i)/4", "--list"] + files)
      XCTAssertEqual(r.status, 0, r.stderr)
      union += r.stdout.split(separator: "\n").map(String.init)
    }
    XCTAssertEqual(union.sorted(), files.sorted())
    let all = try unctl(["run", "--list"] + files)
    XCTAssertEqual(all.stdout, files.joined(separator: "\n") + "\n")
  }

  func testOnATerminalALiveProgressLineCountsTheScenarios() throws {
    // script(1) (util-linux, in every Debian) gives unctl a pseudo-terminal.
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("no /usr/bin/script") }
    let files = [
      write("t1.json", RunScenarioFiles.passing("com.example.t1", name: "t1")),
      write("t2.json", RunScenarioFiles.failing),
      write("t3.json", RunScenarioFiles.passing("com.example.t3", name: "t3")),
    ]
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    let command = ([try Products.unctl.path, "run", "-j", "2"] + files).map { "'\($0)'" }.joined(separator: " ")
    p.arguments = ["-qec", command, "/dev/null"]
    p.environment = Self.environment([:])
    let out = scratchFile("tty.out")
    p.standardOutput = FileHandle(forWritingAtPath: out)
    p.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try p.run()
    p.waitUntilExit()
    let text = try String(contentsOfFile: out, encoding: .utf8)
    XCTAssertEqual(p.terminationStatus, 1, text)
    XCTAssertTrue(text.contains("\u{1B}[K[3/3] passed 2, failed 1"), text)
    XCTAssertTrue(text.contains("2 passed, 1 failed"), text)
  }

  func testHelpDocumentsEveryOption() throws {
    let r = try unctl(["run", "--help"])
    XCTAssertEqual(r.status, 0)
    for option in ["-j N", "--jobs", "--shard I/N", "--list", "--timeout", "--junit", "--html"] {
      XCTAssertTrue(r.stdout.contains(option), option)
    }
  }
}
