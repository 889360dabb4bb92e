import JSONRPC
import UNCenterClient
import UNModel
import XCTest

/// A content field without an Apple property is reached through the protocol's
/// `Content` (`content.someField`), in the same storage the daemon's shape encodes.
final class ContentFieldLookupTests: XCTestCase {
  func testAFieldSetThroughTheProtocolValueIsEncodedAndReadBack() {
    let content = UNMutableNotificationContent()
    content[dynamicMember: \Content.filterCriteria] = "work"
    content[dynamicMember: \Content.summaryArgument] = "Anna"
    XCTAssertEqual(content.filterCriteria, "work")
    XCTAssertEqual(content.wireValue["filterCriteria"], .string("work"))
    XCTAssertEqual(content.wireValue["summaryArgument"], .string("Anna"))
    let decoded = UNNotificationContent(wireValue: content.wireValue)
    XCTAssertEqual(decoded[dynamicMember: \Content.filterCriteria], "work")
    XCTAssertEqual(decoded.summaryArgument, "Anna")
  }

  func testFieldsThisVersionDoesNotKnowAreSkipped() {
    var members = UNMutableNotificationContent().wireValue.objectValue ?? []
    members.append(JSONMember("title", .string("kept")))
    members.removeFirst()
    members.append(JSONMember("someFutureField", .string("x")))
    XCTAssertEqual(UNNotificationContent(wireValue: .object(members)).title, "kept")
  }
}
