import UNServer
import XCTest

/// `--max-attachment-bytes` and `--max-attachment-bytes-per-app`.
final class AttachmentOptionTests: XCTestCase {
  func testTheAttachmentLimitsDefaultTo10And100MiBAndAreListedInTheHelp() throws {
    let defaults = try ServerConfiguration.parse([]).0
    XCTAssertEqual(defaults.maxAttachmentBytes, 10_485_760)
    XCTAssertEqual(defaults.maxAttachmentBytesPerApp, 104_857_600)
    let set = try ServerConfiguration.parse(["--max-attachment-bytes", "1000", "--max-attachment-bytes-per-app=5000"]).0
    XCTAssertEqual(set.maxAttachmentBytes, 1000)
    XCTAssertEqual(set.maxAttachmentBytesPerApp, 5000)
    XCTAssertThrowsError(try ServerConfiguration.parse(["--max-attachment-bytes", "0"])) { error in
      XCTAssertEqual("\(error)", "--max-attachment-bytes: '0' is not an integer >= 1")
    }
    XCTAssertTrue(ServerConfiguration.usage.contains("--max-attachment-bytes N"))
    XCTAssertTrue(ServerConfiguration.usage.contains("--max-attachment-bytes-per-app N"))
  }
}
