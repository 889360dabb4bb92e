import Foundation
import JSONRPC
import XCTest

/// Runs every JSONTestSuite parsing file through `JSONParser`.
final class JSONTestSuiteTests: XCTestCase {
  /// The documented outcome for each implementation-defined file: `true` = accepted.
  ///
  /// Numbers are kept as text, so huge ones are accepted; anything that is not valid
  /// UTF-8, a lone surrogate escape, a byte order mark or UTF-16 is rejected; 500
  /// nested arrays are within the default depth limit of 512.
  static let implementationDefined: [String: Bool] = [
    "i_number_double_huge_neg_exp.json": true,
    "i_number_huge_exp.json": true,
    "i_number_neg_int_huge_exp.json": true,
    "i_number_pos_double_huge_exp.json": true,
    "i_number_real_neg_overflow.json": true,
    "i_number_real_pos_overflow.json": true,
    "i_number_real_underflow.json": true,
    "i_number_too_big_neg_int.json": true,
    "i_number_too_big_pos_int.json": true,
    "i_number_very_big_negative_int.json": true,
    "i_object_key_lone_2nd_surrogate.json": false,
    "i_string_1st_surrogate_but_2nd_missing.json": false,
    "i_string_1st_valid_surrogate_2nd_invalid.json": false,
    "i_string_UTF-16LE_with_BOM.json": false,
    "i_string_UTF-8_invalid_sequence.json": false,
    "i_string_UTF8_surrogate_U+D800.json": false,
    "i_string_incomplete_surrogate_and_escape_valid.json": false,
    "i_string_incomplete_surrogate_pair.json": false,
    "i_string_incomplete_surrogates_escape_valid.json": false,
    "i_string_invalid_lonely_surrogate.json": false,
    "i_string_invalid_surrogate.json": false,
    "i_string_invalid_utf-8.json": false,
    "i_string_inverted_surrogates_U+1D11E.json": false,
    "i_string_iso_latin_1.json": false,
    "i_string_lone_second_surrogate.json": false,
    "i_string_lone_utf8_continuation_byte.json": false,
    "i_string_not_in_unicode_range.json": false,
    "i_string_overlong_sequence_2_bytes.json": false,
    "i_string_overlong_sequence_6_bytes.json": false,
    "i_string_overlong_sequence_6_bytes_null.json": false,
    "i_string_truncated-utf-8.json": false,
    "i_string_utf16BE_no_BOM.json": false,
    "i_string_utf16LE_no_BOM.json": false,
    "i_structure_500_nested_arrays.json": true,
    "i_structure_UTF-8_BOM_empty_object.json": false,
  ]

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("JSONTestSuite")

  func files(_ prefix: String) throws -> [(String, [UInt8])] {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
      .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    return try names.map { name in
      (name, Array(try Data(contentsOf: Self.directory.appendingPathComponent(name))))
    }
  }

  func accepts(_ bytes: [UInt8]) -> Bool {
    (try? JSONParser.parse(bytes)) != nil
  }

  func testAcceptsEveryValidFile() throws {
    let cases = try files("y_")
    XCTAssertEqual(cases.count, 95)
    for (name, bytes) in cases {
      do {
        _ = try JSONParser.parse(bytes)
      } catch {
        XCTFail("\(name): \(error.reason)")
      }
    }
  }

  func testRejectsEveryInvalidFile() throws {
    let cases = try files("n_")
    XCTAssertEqual(cases.count, 188)
    for (name, bytes) in cases {
      XCTAssertFalse(accepts(bytes), name)
    }
  }

  func testImplementationDefinedFilesHaveTheDocumentedOutcome() throws {
    let cases = try files("i_")
    XCTAssertEqual(Set(cases.map(\.0)), Set(Self.implementationDefined.keys))
    for (name, bytes) in cases {
      XCTAssertEqual(accepts(bytes), Self.implementationDefined[name], name)
    }
  }

  /// Valid files still parse to the same value after a write and re-parse.
  func testValidFilesRoundTrip() throws {
    for (name, bytes) in try files("y_") {
      guard let value = try? JSONParser.parse(bytes) else { continue }
      XCTAssertEqual(try JSONParser.parse(value.encoded()), value, name)
    }
  }
}
