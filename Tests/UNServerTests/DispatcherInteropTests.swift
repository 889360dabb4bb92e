import JSONRPC
import UNModel
import XCTest

@testable import UNServer

private let t0 = Instant(rfc3339: "2026-01-01T08:00:00Z")!

/// What clients from the JSON-RPC and LSP world send, at the dispatcher: `$/` methods,
/// params that are null or `[]`, and Apple's method names.
final class DispatcherInteropTests: XCTestCase {
  private var dispatcher: Dispatcher!
  private let client = ClientState(id: 1, peer: nil)

  override func setUp() {
    dispatcher = Dispatcher(
      center: Center(clock: ManualClock(t0)), configuration: ServerConfiguration(), log: Log(level: .error),
      metrics: Metrics())
  }

  private func call(_ method: String, _ params: String?, id: RequestID? = .number("1")) -> Dispatcher.Answer? {
    let text =
      params.map { #"{"jsonrpc":"2.0","method":"\#(method)","params":\#($0)"# }
      ?? #"{"jsonrpc":"2.0","method":"\#(method)""#
    let full = text + (id.map { #","id":\#(String(decoding: $0.json.encoded(), as: UTF8.self))}"# } ?? "}")
    guard case .single(let entry) = RPCDecoder.decode(Array(full.utf8)) else {
      XCTFail("not a single entry: \(full)")
      return nil
    }
    return dispatcher.handle(entry, from: client)
  }

  private func error(_ answer: Dispatcher.Answer?, file: StaticString = #filePath, line: UInt = #line) -> RPCError? {
    guard case .error(_, let e)? = answer else {
      XCTFail("not an error: \(String(describing: answer))", file: file, line: line)
      return nil
    }
    return e
  }

  private func isResult(_ answer: Dispatcher.Answer?) -> Bool {
    switch answer {
    case .result?, .encoded?: true
    default: false
    }
  }

  func testCancelRequestNamesTheIdToCancel() {
    guard case .cancelling(let id, let target)? = call("$/cancelRequest", #"{"id":7}"#, id: .string("c")) else {
      return XCTFail("not a cancel: \(String(describing: call("$/cancelRequest", #"{"id":7}"#)))")
    }
    XCTAssertEqual(id, .string("c"))
    XCTAssertEqual(target, .number("7"))
    // As a notification it is still carried out; only its answer is left out.
    guard case .cancelling(nil, .string("w"))? = call("$/cancelRequest", #"{"id":"w"}"#, id: nil) else {
      return XCTFail("a cancel notification is not carried out")
    }
    XCTAssertEqual(error(call("$/cancelRequest", "{}"))?.data?["field"], .string("id"))
    XCTAssertEqual(error(call("$/cancelRequest", #"{"id":true}"#))?.data?["field"], .string("id"))
    XCTAssertNil(call("$/cancelRequest", "{}", id: nil))
  }

  func testUnknownDollarNotificationsAreIgnoredButRequestsAreRefused() {
    XCTAssertNil(call("$/setTrace", #"{"value":"off"}"#, id: nil))
    XCTAssertEqual(error(call("$/setTrace", #"{"value":"off"}"#))?.code, .methodNotFound)
  }

  func testRequestCancelledError() {
    let e = RPCError.requestCancelled(.number("7"))
    XCTAssertEqual(e.code.rawValue, -32800)
    XCTAssertEqual(e.message, "Request cancelled: 7")
    XCTAssertEqual(e.data, .object(["id": .int(7)]))
  }

  func testNullAndEmptyArrayParamsRunWithDefaults() {
    for params in ["null", "[]"] {
      XCTAssertTrue(isResult(call("ping", params)), params)
      XCTAssertTrue(isResult(call("stats", params)), params)
      // Without an app to default to: the same error as for `{}`.
      XCTAssertEqual(error(call("listPending", params))?.code, ErrorCode.noApp, params)
    }
    XCTAssertTrue(isResult(call("hello", #"{"appId":"com.example.a"}"#)))
    for params in ["null", "[]", "{}"] {
      XCTAssertTrue(isResult(call("listPending", params)), params)
      let missing = error(call("scheduleLocal", params))
      XCTAssertEqual(missing?.message, "Invalid params: identifier: required", params)
    }
    XCTAssertEqual(error(call("ping", "[1]"))?.code, .invalidParams)
  }

  func testAppleNamesGetAHint() {
    for (apple, ours) in [
      ("getPendingNotificationRequests", "listPending"), ("getDeliveredNotifications", "listDelivered"),
      ("add", "scheduleLocal"), ("addNotificationRequest", "scheduleLocal"),
      ("removePendingNotificationRequests(withIdentifiers:)", "removePending"),
      ("removePendingNotificationRequests", "removePending"),
      ("removeAllPendingNotificationRequests", "removePending"),
      ("removeDeliveredNotifications", "removeDelivered"), ("removeAllDeliveredNotifications", "removeDelivered"),
      ("setNotificationCategories", "registerCategories"), ("getNotificationCategories", "getCategories"),
      ("requestAuthorization(options:)", "requestAuthorization"),
      ("getNotificationSettings", "getNotificationSettings"), ("setBadgeCount", "setBadgeCount"),
      ("userNotificationCenter(_:willPresent:withCompletionHandler:)", "completePresentation"),
      ("userNotificationCenter(_:didReceive:withCompletionHandler:)", "completeResponse"),
    ] where MethodTable.method(named: apple) == nil {
      let e = error(call(apple, nil))
      XCTAssertEqual(e?.code, .methodNotFound, apple)
      XCTAssertEqual(e?.message, "Method not found: \(apple); did you mean '\(ours)'?", apple)
      XCTAssertEqual(e?.data, .object(["method": .string(apple), "suggestion": .string(ours)]), apple)
    }
  }

  func testNearMissesOfRealNamesGetAHint() {
    for (typo, ours) in [
      ("listPendng", "listPending"), ("ListPending", "listPending"), ("schedulelocal", "scheduleLocal"),
      ("getCategries", "getCategories"), ("watFor", "waitFor"), ("pign", "ping"),
    ] {
      XCTAssertEqual(error(call(typo, nil))?.message, "Method not found: \(typo); did you mean '\(ours)'?", typo)
    }
    for unrelated in ["frobnicate", "x", "$/setTrace"] {
      let e = error(call(unrelated, nil))
      XCTAssertEqual(e?.message, "Method not found: \(unrelated)", unrelated)
      XCTAssertEqual(e?.data, nil, unrelated)
    }
  }

  /// Every Apple name points at a method that exists, and none is itself a method.
  func testAppleNameTableTargetsRealMethods() {
    for (apple, ours) in MethodTable.appleNames {
      XCTAssertNotNil(MethodTable.method(named: ours), "\(apple) → \(ours)")
      XCTAssertNil(MethodTable.method(named: apple), apple)
    }
  }
}
