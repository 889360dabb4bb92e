import JSONRPC
import TestSupport
import XCTest

/// Seeded random mutations: the parser never crashes, whatever it accepts survives an
/// encode/parse round trip, and random chunkings of a stream frame identically.
final class MutationTests: XCTestCase {
  static let seeds = [
    #"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,2.5e-3,true,false,null],"s":"é\n\u00e9\ud83d\ude00"}}"#,
    #"[{"jsonrpc":"2.0","method":"n"},{"x":-0.0,"y":"\"\\\/\b\f\n\r\t"}]"#,
    #"  "日本語 😀"  "#,
  ]

  static let interesting: [UInt8] =
    Array(#"{}[]",:\/0123456789-+.eEtrufalsn "#.utf8) + [
      0x00, 0x0A, 0x0D, 0x09, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
    ]

  func testMutatedTextsNeverCrashAndRoundTrip() throws {
    var random = SeededGenerator(seed: 20_260_101)
    var accepted = 0
    for _ in 0..<20_000 {
      var bytes = Array(Self.seeds.randomElement(using: &random)!.utf8)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let position = Int.random(in: 0..<bytes.count, using: &random)
        let byte = Self.interesting.randomElement(using: &random)!
        switch Int.random(in: 0..<3, using: &random) {
        case 0: bytes[position] = byte
        case 1: bytes.insert(byte, at: position)
        default: if bytes.count > 1 { bytes.remove(at: position) }
        }
      }
      guard let value = try? JSONParser.parse(bytes) else { continue }
      accepted += 1
      let encoded = value.encoded()
      XCTAssertFalse(encoded.contains(0x0A))
      XCTAssertEqual(try JSONParser.parse(encoded), value, String(decoding: bytes, as: UTF8.self))
      _ = RPCDecoder.decode(value: value)
    }
    XCTAssertGreaterThan(accepted, 100)
  }

  func testRandomChunkingsFrameIdentically() {
    var random = SeededGenerator(seed: 7)
    for framing in [Framing.newlineDelimited, .contentLength] {
      var stream: [UInt8] = []
      for k in 0..<60 {
        let length = Int.random(in: 0...120, using: &random)
        let payload = Array("[\(String(repeating: "\(k % 10)", count: length))]".utf8)
        Framer.appendFrame(payload, framing: framing, to: &stream)
      }
      let oneShot = events(stream, chunkSizes: [stream.count])
      XCTAssertEqual(oneShot.filter { $0 == "oversized" }.count > 0, true)
      for _ in 0..<200 {
        let sizes = (0..<50).map { _ in Int.random(in: 1...97, using: &random) }
        XCTAssertEqual(events(stream, chunkSizes: sizes), oneShot, "\(framing)")
      }
    }
  }

  /// Frames `stream` with a 100-byte limit, cycling through `chunkSizes`.
  func events(_ stream: [UInt8], chunkSizes: [Int]) -> [String] {
    var framer = Framer(maxMessageBytes: 100)
    var out: [String] = []
    var start = 0
    var turn = 0
    while start < stream.count {
      let end = min(stream.count, start + chunkSizes[turn % chunkSizes.count])
      turn += 1
      framer.feed(Array(stream[start..<end])) { event in
        switch event {
        case .message(let bytes): out.append(String(decoding: bytes, as: UTF8.self))
        case .oversized: out.append("oversized")
        case .malformed(let reason, _): out.append("malformed: \(reason)")
        }
      }
      start = end
    }
    return out
  }
}
