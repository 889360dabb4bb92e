import UNDesktop
import UNModel
import XCTest

/// The server's signals as the `respond` they stand for
/// (proto-docs/README.md, "Desktop: org.freedesktop.Notifications").
final class DesktopAnswerTests: XCTestCase {
  func answer(_ signal: DesktopSignal, reply: String? = "reply") -> DesktopAnswer? {
    DesktopAnswer.from(signal, app: "com.example.chat", identifier: "msg-1", replyAction: reply)
  }

  func testDefaultActionIsATap() {
    XCTAssertEqual(
      answer(.actionInvoked(id: 3, key: "default")),
      DesktopAnswer(app: "com.example.chat", identifier: "msg-1", actionIdentifier: SystemAction.defaultAction))
  }

  func testActionKeyIsTheCategoryAction() {
    XCTAssertEqual(answer(.actionInvoked(id: 3, key: "delete"))?.actionIdentifier, "delete")
    XCTAssertNil(answer(.actionInvoked(id: 3, key: "delete"))?.userText)
  }

  func testReplyIsTheTextInputActionWithUserText() {
    let a = answer(.replied(id: 3, text: "Dzięki!"))
    XCTAssertEqual(a?.actionIdentifier, "reply")
    XCTAssertEqual(a?.userText, "Dzięki!")
    XCTAssertNil(answer(.replied(id: 3, text: "x"), reply: nil), "no text-input action was offered")
  }

  func testOnlyAUserDismissIsADismiss() {
    XCTAssertEqual(answer(.closed(id: 3, reason: 2))?.actionIdentifier, SystemAction.dismissAction)
    for reason: UInt32 in [1, 3, 4, 0, 9] {
      XCTAssertNil(answer(.closed(id: 3, reason: reason)), "reason \(reason)")
    }
  }

  func testAutoNeedsAReachableSessionBus() {
    let none: (String) -> Bool = { _ in false }
    let some: (String) -> Bool = { $0 == "/run/user/1000/bus" }
    XCTAssertFalse(DesktopMode.sessionBusReachable(environment: [:], explicitAddress: nil, fileExists: some))
    XCTAssertTrue(
      DesktopMode.sessionBusReachable(
        environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"], explicitAddress: nil, fileExists: none))
    XCTAssertTrue(
      DesktopMode.sessionBusReachable(
        environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], explicitAddress: nil, fileExists: some))
    XCTAssertFalse(
      DesktopMode.sessionBusReachable(
        environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], explicitAddress: nil, fileExists: none))
    XCTAssertTrue(DesktopMode.sessionBusReachable(environment: [:], explicitAddress: "unix:path=/b", fileExists: none))
  }
}
