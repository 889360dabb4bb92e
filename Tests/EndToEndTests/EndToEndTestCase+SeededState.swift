import Foundation
import JSONRPC
import TestSupport
import XCTest

/// State a test sets up before doing something that must change none of it (garbage,
/// vanishing clients), and checks afterwards.
extension EndToEndTestCase {
  /// Two categories, a pending request `keep` and a badge of `badge`, for `app`.
  func seed(_ d: DaemonProcess, app: String, badge: Int) throws {
    let c = try d.connect()
    try ok(c.call("registerCategories", json(#"{"app":"\#(app)","categories":\#(MethodTests.categories)}"#)))
    try schedule(c, "keep", after: 600, app: app)
    try ok(c.call("setBadgeCount", json(#"{"app":"\#(app)","count":\#(badge)}"#)))
  }

  /// What `seed` set up is all still there, and the clock has not moved.
  func assertStateIntact(
    _ d: DaemonProcess, app: String, badge: Int, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let c = try d.connect()
    assertJSON(
      try ok(c.call("ping"), file: file, line: line), #"{"now":"2026-01-01T08:00:00.000Z"}"#, file: file, line: line)
    let pending = try ok(c.call("listPending", json(#"{"app":"\#(app)"}"#)), file: file, line: line)
    XCTAssertEqual(
      pending["requests"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }, ["keep"], file: file, line: line)
    XCTAssertEqual(
      try ok(c.call("getCategories", json(#"{"app":"\#(app)"}"#)))["categories"]?.arrayValue?.count, 2, file: file,
      line: line)
    assertJSON(
      try ok(c.call("getBadgeCount", json(#"{"app":"\#(app)"}"#))), #"{"count":\#(badge)}"#, file: file, line: line)
  }
}
