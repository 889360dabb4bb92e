import JSONRPC
import UNModel
import XCTest

@testable import UNServer

/// While the state directory refuses writes, the dispatcher refuses every method of kind
/// `.change` before it runs (nothing in the center moves) and runs all others.
final class NotWritableTests: XCTestCase {
  private let t0 = Instant(rfc3339: "2026-01-01T08:00:00Z")!
  private var center: Center!
  private var dispatcher: Dispatcher!
  private let client = ClientState(id: 1, peer: nil)

  override func setUp() {
    center = Center(clock: ManualClock(t0))
    dispatcher = Dispatcher(
      center: center, configuration: ServerConfiguration(), log: Log(level: .error), metrics: Metrics())
    dispatcher.notWritable = Dispatcher.NotWritable(
      error: .stateNotWritable(directory: "/s", "/s/uncenter.db: COMMIT: database or disk is full"),
      reason: "full", since: t0)
  }

  private func errorCode(_ method: String, _ params: String) -> ErrorCode? {
    let value = try? JSONParser.parse(Array(params.utf8))
    let answer = dispatcher.handle(.request(Request(id: .number("1"), method: method, params: value)), from: client)
    if case .error(_, let e)? = answer { return e.code }
    return nil
  }

  func testEveryChangeIsRefusedBeforeItRuns() {
    let changes = MethodTable.all.filter { $0.kind == .change }.map { $0.name }
    XCTAssertEqual(
      Set(changes),
      [
        "registerCategories", "scheduleLocal", "removePending", "removeDelivered", "respond", "setForeground",
        "setDeviceLocked", "setBadgeCount", "advanceClock", "reset", "requestAuthorization", "setAuthorization",
        "pushRemote", "expand", "collapse", "interact", "registerLocalizedStrings", "releaseApp",
      ])
    for method in changes {
      XCTAssertEqual(errorCode(method, #"{"app":"a"}"#), .stateNotWritable, method)
    }
    XCTAssertTrue(center.apps.isEmpty, "a refused change created an app")
  }

  func testTheFastPathsScheduleLocalIsRefusedToo() {
    var fast = ScheduleLocalCall.empty
    let message = Array(
      #"{"jsonrpc":"2.0","id":7,"method":"scheduleLocal","params":{"app":"a","identifier":"x","content":{"title":"t"},"trigger":null}}"#
        .utf8)
    let read = message.withUnsafeBytes { RequestFastPath.read($0, maxDepth: 64, scheduleLocal: &fast) }
    guard case .scheduleLocal = read else { return XCTFail("the fast path declined the request") }
    let answer = dispatcher.handle(fast, from: client)
    guard case .error(_, let e) = answer else { return XCTFail("not refused") }
    XCTAssertEqual(e.code, .stateNotWritable)
    XCTAssertEqual(e.data?["directory"], .string("/s"))
    XCTAssertTrue(center.apps.isEmpty)
  }

  func testReadsAndSessionsRunAndChangesRunAgainOnceWritable() {
    XCTAssertNil(errorCode("ping", "{}"))
    XCTAssertNil(errorCode("stats", "{}"))
    XCTAssertNil(errorCode("listPending", #"{"app":"a"}"#))
    XCTAssertNil(errorCode("getBadgeCount", #"{"app":"a"}"#))
    XCTAssertNil(errorCode("hello", #"{"appId":"a"}"#))
    dispatcher.notWritable = nil
    XCTAssertNil(errorCode("setBadgeCount", #"{"app":"a","count":1}"#))
    XCTAssertEqual(center.badgeCount(app: "a"), 1)
  }
}
