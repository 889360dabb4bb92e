import Foundation
import XCTest

@testable import unctl

/// `--shard I/N`: every file in exactly one shard, for every N, stable as files come and go.
final class ShardTests: XCTestCase {
  /// Names like a real suite's: nested directories, Unicode, spaces, similar prefixes.
  static let files: [String] = (0..<500).map { i in
    let dir = ["Tests/Scenarios", "scenarios/pl", "scenarios/it", "scenarios/ar", "deep/a/b/c"][i % 5]
    let name = ["chat", "powiadomienie-ż", "notifica è", "إشعار", "x"][i % 5]
    return "\(dir)/\(name)-\(i).json"
  }

  func testShardsPartitionTheFilesExactlyForEveryNFrom1To16() {
    for n in 1...16 {
      var seen: [String: Int] = [:]
      for i in 1...n {
        for file in Shard(index: i, count: n).select(Self.files, workingDirectory: "/repo") {
          XCTAssertNil(seen[file], "\(file) is in shard \(seen[file] ?? 0)/\(n) and \(i)/\(n)")
          seen[file] = i
        }
      }
      XCTAssertEqual(Set(seen.keys), Set(Self.files), "the union of the \(n) shards is the whole set")
      XCTAssertEqual(seen.count, Self.files.count)
      if n <= 8 {
        // Not a balance guarantee, a sanity check that the hash spreads: 500 files never
        // leave a shard of 8 or fewer empty.
        XCTAssertEqual(Set(seen.values).count, n, "every one of \(n) shards gets files")
      }
    }
  }

  func testMembershipDependsOnlyOnTheFileSoAddingFilesMovesNone() {
    let before = Dictionary(
      uniqueKeysWithValues: Self.files.map { ($0, Shard.shardIndex(of: $0, count: 7, workingDirectory: "/r")) })
    let more = Self.files + (0..<100).map { "new/added-\($0).json" }
    for i in 1...7 {
      for file in Shard(index: i, count: 7).select(more, workingDirectory: "/r") where before[file] != nil {
        XCTAssertEqual(before[file], i, file)
      }
    }
  }

  func testTheHashIsFNV1a64() {
    // Published FNV-1a 64-bit test vectors.
    XCTAssertEqual(Shard.fnv1a64([]), 0xcbf2_9ce4_8422_2325)
    XCTAssertEqual(Shard.fnv1a64(Array("a".utf8)), 0xaf63_dc4c_8601_ec8c)
    XCTAssertEqual(Shard.fnv1a64(Array("foobar".utf8)), 0x8594_4171_f739_67e8)
  }

  func testPathsAreTakenRelativeToTheWorkingDirectory() {
    for spelling in ["a/b.json", "./a/b.json", "a//b.json", "a/x/../b.json", "/work/repo/a/b.json"] {
      XCTAssertEqual(Shard.relativePath(spelling, to: "/work/repo"), "a/b.json", spelling)
    }
    XCTAssertEqual(Shard.relativePath("../shared/s.json", to: "/work/repo"), "/work/shared/s.json")
    XCTAssertEqual(Shard.relativePath("s.json", to: "/"), "s.json")
    // Two checkouts in different places put the same file in the same shard.
    XCTAssertEqual(
      Shard.shardIndex(of: "/home/ci/a/Tests/x.json", count: 5, workingDirectory: "/home/ci/a"),
      Shard.shardIndex(of: "Tests/x.json", count: 5, workingDirectory: "/builds/b"))
  }

  func testShardArgumentErrorsNameWhatIsWrong() {
    for (text, message) in [
      ("3", "--shard needs I/N"), ("0/4", "I must be between 1 and 4"), ("5/4", "I must be between 1 and 4"),
      ("1/0", "N must be at least 1"), ("a/b", "--shard needs I/N"), ("1/2/3", "--shard needs I/N"),
    ] {
      XCTAssertThrowsError(try Shard(parsing: text), text) { error in
        XCTAssertTrue("\(error)".contains(message), "\(text): \(error)")
      }
    }
    XCTAssertEqual(try Shard(parsing: "2/4"), Shard(index: 2, count: 4))
  }
}
