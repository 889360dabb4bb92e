import XCTest

@testable import UNModel

/// `IdentifierHash` is SipHash-1-3 exactly as `Hasher` computes it: these are the values
/// `Hasher().combine(bytes:)` gives for the bytes 0, 1, … n-1 with its seed at zero
/// (`SWIFT_DETERMINISTIC_HASHING=1`), covering the empty string, a partial word alone,
/// whole words and a partial word after them.
final class IdentifierHashTests: XCTestCase {
  func testMatchesHasherWithZeroSeed() {
    let expected: [(Int, UInt64)] = [
      (0, 0xd1fb_a762_150c_532c), (1, 0x68a9_1412_8e01_e473), (7, 0x2f09_8ab0_c751_325a),
      (8, 0xead4_11e6_7ebe_2eea), (9, 0x7592_7f9d_9512_4362), (15, 0xf30e_b725_bb91_c9ea),
      (16, 0x8972_1884_33a5_c5b7), (20, 0x639e_355a_e68c_0100), (63, 0x385d_3e39_e5f3_7359),
    ]
    for (n, value) in expected {
      let bytes = (0..<n).map { UInt8($0) }
      XCTAssertEqual(bytes.withUnsafeBufferPointer { IdentifierHash.hash($0, key: (0, 0)) }, value, "\(n) bytes")
    }
  }

  /// The key is the process's: the same bytes hash alike within it.
  func testStableWithinTheProcess() {
    let id = Array("r-3f2a-1-42".utf8)
    let a = id.withUnsafeBufferPointer { IdentifierHash.hash($0) }
    let b = id.withUnsafeBufferPointer { IdentifierHash.hash($0) }
    XCTAssertEqual(a, b)
    XCTAssertEqual(PendingSchedule.hash("r-3f2a-1-42"), a)
  }
}
