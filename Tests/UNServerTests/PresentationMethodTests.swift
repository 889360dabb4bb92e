import JSONRPC
import UNModel
import XCTest

@testable import UNServer

/// `hello {presentationDecision}` and `completePresentation` through the dispatcher.
final class PresentationMethodTests: XCTestCase {
  private var center: Center!
  private var dispatcher: Dispatcher!
  private let client = ClientState(id: 1, peer: nil)

  override func setUp() {
    center = Center(clock: ManualClock(Instant(rfc3339: "2026-01-01T08:00:00Z")!))
    dispatcher = Dispatcher(
      center: center, configuration: ServerConfiguration(), log: Log(level: .error), metrics: Metrics())
  }

  private func call(_ method: String, _ params: String) -> Dispatcher.Answer? {
    dispatcher.handle(
      .request(Request(id: .number("1"), method: method, params: try! JSONParser.parse(params))), from: client)
  }

  private func errorMessage(_ answer: Dispatcher.Answer?) -> String? {
    if case .error(_, let e)? = answer { return e.message }
    return nil
  }

  func testDelegateDecisionIsOnlyForApps() {
    XCTAssertEqual(
      errorMessage(call("hello", #"{"role":"observer","presentationDecision":"delegate"}"#)),
      "Invalid params: presentationDecision: only for role 'app'")
    XCTAssertNotNil(errorMessage(call("hello", #"{"appId":"a","presentationDecision":"later"}"#)))
  }

  func testCompletePresentationDecidesAndRefusesBadInput() throws {
    guard case .result? = call("hello", #"{"appId":"a","presentationDecision":"delegate"}"#) else {
      return XCTFail("hello failed")
    }
    XCTAssertEqual(center.sessions[1]?.presentationDecision, .delegate)
    let scheduled = call("scheduleLocal", #"{"identifier":"m","content":{"title":"t"},"trigger":null}"#)
    XCTAssertNil(errorMessage(scheduled))
    let id = try XCTUnwrap(center.pendingPresentations.keys.first)
    XCTAssertEqual(
      errorMessage(call("completePresentation", #"{"presentationId":"\#(id)"}"#)), "Invalid params: options: required")
    XCTAssertNotNil(errorMessage(call("completePresentation", #"{"presentationId":"\#(id)","options":["loud"]}"#)))
    XCTAssertEqual(
      errorMessage(call("completePresentation", #"{"presentationId":"pres-99","options":[]}"#)),
      "no presentation 'pres-99'")
    guard case .result? = call("completePresentation", #"{"presentationId":"\#(id)","options":["list"]}"#) else {
      return XCTFail("completePresentation failed")
    }
    XCTAssertNotNil(center.app("a").delivered["m"])
  }
}
