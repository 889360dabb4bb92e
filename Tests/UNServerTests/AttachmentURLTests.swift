import Foundation
import JSONRPC
import UNModel
import XCTest

@testable import UNServer

/// The pure parts of attachment handling: which local path a client's `file:` URL names,
/// the copy's extension, and the per-app directory names.
final class AttachmentURLTests: XCTestCase {
  private func path(_ text: String) -> String? {
    (try? AttachmentURL.path(text)).map { String(decoding: $0, as: UTF8.self) }
  }

  private func problem(_ text: String) -> AttachmentURL.Problem? {
    do {
      _ = try AttachmentURL.path(text)
      return nil
    } catch {
      return error
    }
  }

  func testLocalFileURLsDecodeToTheirPath() {
    XCTAssertEqual(path("file:///tmp/cat.png"), "/tmp/cat.png")
    XCTAssertEqual(path("FILE:///tmp/cat.png"), "/tmp/cat.png")
    XCTAssertEqual(path("file://localhost/tmp/cat.png"), "/tmp/cat.png")
    XCTAssertEqual(path("file://LocalHost/tmp/cat.png"), "/tmp/cat.png")
    XCTAssertEqual(path("file:/tmp/cat.png"), "/tmp/cat.png")
    XCTAssertEqual(path("file:///tmp/%63at%20one.png"), "/tmp/cat one.png")
    XCTAssertEqual(path("file:///tmp/%2e%2E/etc/shadow"), "/tmp/../etc/shadow", "decoded, then opened as the caller")
    XCTAssertEqual(path("file:///tmp/%2Fx"), "/tmp//x")
    XCTAssertEqual(path("file:///tmp/zdj%C4%99cie.jpg"), "/tmp/zdjęcie.jpg")
    XCTAssertEqual(path("file:///tmp/zdjęcie.jpg"), "/tmp/zdjęcie.jpg")
    XCTAssertEqual(try AttachmentURL.path("file:///%FF"), [UInt8(ascii: "/"), 0xFF], "a path is bytes")
  }

  func testEverythingElseIsRefusedPrecisely() {
    XCTAssertEqual(problem("https://example.com/cat.png"), .notFileURL)
    XCTAssertEqual(problem("/tmp/cat.png"), .notFileURL)
    XCTAssertEqual(problem("fil:///tmp/cat.png"), .notFileURL)
    XCTAssertEqual(problem(""), .notFileURL)
    XCTAssertEqual(problem("file://example.com/tmp/cat.png"), .otherHost("example.com"))
    XCTAssertEqual(problem("file://localhost:80/tmp/cat.png"), .otherHost("localhost:80"))
    XCTAssertEqual(problem("file://user@localhost/tmp/cat.png"), .otherHost("user@localhost"))
    XCTAssertEqual(problem("file:tmp/cat.png"), .notAbsolute)
    XCTAssertEqual(problem("file://localhost"), .notAbsolute)
    XCTAssertEqual(problem("file:///tmp/cat.png?x=1"), .queryOrFragment)
    XCTAssertEqual(problem("file:///tmp/cat.png#top"), .queryOrFragment)
    XCTAssertEqual(problem("file:///tmp/%2"), .badEscape)
    XCTAssertEqual(problem("file:///tmp/%zz"), .badEscape)
    XCTAssertEqual(problem("file:///tmp/a%00b"), .nul)
    XCTAssertEqual(problem("file:///tmp/a\u{0}b"), .nul)
    XCTAssertEqual(
      AttachmentURL.Problem.otherHost("h").message("file://h/x"),
      "'file://h/x' names another host ('h'); only file:///path and file://localhost/path are local")
  }

  func testTheCopyKeepsOnlyAPlainExtension() {
    func ext(_ p: String) -> String { AttachmentURL.fileExtension(Array(p.utf8)) }
    XCTAssertEqual(ext("/tmp/cat.png"), "png")
    XCTAssertEqual(ext("/tmp/cat.tar.GZ"), "GZ")
    XCTAssertEqual(ext("/tmp/cat"), "")
    XCTAssertEqual(ext("/tmp/.hidden"), "")
    XCTAssertEqual(ext("/tmp/dir.d/cat"), "")
    XCTAssertEqual(ext("/tmp/cat.p ng"), "")
    XCTAssertEqual(ext("/tmp/cat.ę"), "")
    XCTAssertEqual(ext("/tmp/cat." + String(repeating: "a", count: 17)), "")
  }

  func testDistinctAppIdsGetDistinctDirectories() {
    let ids = [
      "com.example", "com.Example", "com%2Eexample", "com%2eexample", "com\u{0}x", "com\u{0}", "com", "", ".", "..",
      "%", "%.", "%2E", "a/b", "a%2Fb", "café", "cafe\u{301}", "com.example\u{0}x", "\u{7F}", "%7F",
    ]
    var seen: [String: String] = [:]
    for id in ids {
      let name = AttachmentStore.directoryName(id)
      XCTAssertNil(seen[name], "'\(id)' and '\(seen[name] ?? "")' share \(name)")
      seen[name] = id
      XCTAssertFalse(name.contains("/"), name)
      XCTAssertFalse(name.contains("\u{0}"), name)
      XCTAssertNotEqual(name, ".")
      XCTAssertNotEqual(name, "..")
      XCTAssertFalse(name.isEmpty)
    }
    XCTAssertEqual(AttachmentStore.directoryName("com\u{0}x"), "com%00x")
    XCTAssertEqual(AttachmentStore.directoryName("com.example_1-2"), "com.example_1-2")
  }

  func testAnAppIdTooLongForADirectoryNameIsRefusedBeforeAnyCopy() throws {
    var content = Content()
    content.attachments = [.init(identifier: "a", url: "file:///tmp/x")]
    XCTAssertNoThrow(try AttachmentStore.sources(content, app: String(repeating: "a", count: 255)))
    XCTAssertThrowsError(try AttachmentStore.sources(content, app: String(repeating: "é", count: 50))) { error in
      XCTAssertEqual((error as? RPCError)?.data?["field"], .string("content.attachments"))
    }
  }
}
