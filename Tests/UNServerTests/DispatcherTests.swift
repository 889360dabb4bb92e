import JSONRPC
import UNModel
import XCTest

@testable import UNServer

private let t0 = Instant(rfc3339: "2026-01-01T08:00:00Z")!

final class DispatcherTests: XCTestCase {
  private var center: Center!
  private var dispatcher: Dispatcher!
  private var metrics: Metrics!
  private let client = ClientState(id: 1, peer: nil)

  override func setUp() {
    center = Center(clock: ManualClock(t0))
    metrics = Metrics()
    dispatcher = Dispatcher(
      center: center, configuration: ServerConfiguration(), log: Log(level: .error), metrics: metrics)
  }

  private func call(_ method: String, _ params: JSONValue?, id: RequestID? = .number("1")) -> Dispatcher.Answer? {
    dispatcher.handle(.request(Request(id: id, method: method, params: params)), from: client)
  }

  private func result(_ answer: Dispatcher.Answer?, file: StaticString = #filePath, line: UInt = #line) -> JSONValue? {
    switch answer {
    case .result(_, let value)?: return value
    case .encoded(_, let bytes)?: return try? JSONParser.parse(bytes)
    default:
      XCTFail("not a result: \(String(describing: answer))", file: file, line: line)
      return nil
    }
  }

  private func error(_ answer: Dispatcher.Answer?, file: StaticString = #filePath, line: UInt = #line) -> RPCError? {
    switch answer {
    case .error(_, let e)?: return e
    default:
      XCTFail("not an error: \(String(describing: answer))", file: file, line: line)
      return nil
    }
  }

  func testUnknownMethod() {
    let answer = call("scheduleLocl", .object([]), id: .string("abc"))
    guard case .error(let id, let e)? = answer else { return XCTFail("\(String(describing: answer))") }
    XCTAssertEqual(id, .string("abc"))
    XCTAssertEqual(e.code, .methodNotFound)
    XCTAssertEqual(e.code.rawValue, -32601)
    // A near miss of a method's name gets a hint (DispatcherInteropTests has the rest).
    XCTAssertEqual(e.message, "Method not found: scheduleLocl; did you mean 'scheduleLocal'?")
    XCTAssertEqual(e.data?["suggestion"], .string("scheduleLocal"))
  }

  func testArrayParams() {
    let e = error(call("ping", .array([.int(1)])))
    XCTAssertEqual(e?.code.rawValue, -32602)
    XCTAssertEqual(e?.message, "Invalid params: params: must be an object (by name), not an array")
  }

  func testNotificationsGetNoAnswerEvenOnError() {
    XCTAssertNil(call("nope", nil, id: nil))
    XCTAssertNil(call("ping", .array([]), id: nil))
    XCTAssertNil(call("scheduleLocal", .object(["app": .string("a"), "bogus": .int(1)]), id: nil))
    XCTAssertNil(call("ping", nil, id: nil))
    // A notification still runs.
    XCTAssertNil(
      call(
        "scheduleLocal",
        .object([
          "app": .string("a"), "identifier": .string("x"), "content": .object(["title": .string("t")]),
          "trigger": .object(["type": .string("timeInterval"), "timeInterval": .int(5)]),
        ]), id: nil))
    XCTAssertEqual(center.app("a").pending.count, 1)
    XCTAssertEqual(metrics.requests, 5)
  }

  func testNullIdIsAnswered() {
    guard case .encoded(let id, _)? = call("ping", nil, id: .null) else { return XCTFail() }
    XCTAssertEqual(id, .null)
  }

  func testInvalidEntriesAreAnsweredWithTheirError() {
    let bad = RPCError.invalidRequest("missing method")
    let answer = dispatcher.handle(.invalid(id: .number("7"), error: bad), from: client)
    guard case .error(let id, let e)? = answer else { return XCTFail() }
    XCTAssertEqual(id, .number("7"))
    XCTAssertEqual(e, bad)
  }

  func testPingAnswersTheClock() {
    XCTAssertEqual(result(call("ping", nil))?["now"], .string("2026-01-01T08:00:00.000Z"))
  }

  func testAppScopedCallWithoutAppIsNoApp() {
    let e = error(call("getBadgeCount", .object([])))
    XCTAssertEqual(e?.code.rawValue, -32000)
    XCTAssertEqual(e?.data?["reason"], .string("noApp"))
  }

  func testScheduleLocalThroughTheDispatcher() {
    let r = result(
      call(
        "scheduleLocal",
        .object([
          "app": .string("a"), "identifier": .string("x"), "content": .object(["title": .string("t")]),
          "trigger": .object([
            "type": .string("calendar"), "dateMatching": .object(["hour": .int(9)]),
            "timeZone": .string("UTC"),
          ]),
        ])))
    XCTAssertEqual(r?["scheduled"], .bool(true))
    XCTAssertEqual(r?["nextTriggerDate"], .string("2026-01-01T09:00:00.000Z"))
    XCTAssertEqual(r?["warnings"], .array([]))
    let bad = error(
      call(
        "scheduleLocal",
        .object([
          "app": .string("a"), "identifier": .string("y"), "content": .object([]),
          "trigger": .object(["type": .string("calendar"), "dateMatching": .object(["month": .int(13)])]),
        ])))
    XCTAssertEqual(bad?.code.rawValue, -32008)
    XCTAssertEqual(bad?.message, "trigger.dateMatching.month: 13 is out of range 1...12")
  }

  func testWaitForAnswersAtOnceWithARecordedEvent() throws {
    _ = try center.schedule(
      app: "a",
      NotificationRequest(
        identifier: "x", content: Content(), trigger: .timeInterval(try TimeIntervalTrigger(seconds: 5, repeats: false))
      ))
    let r = result(
      call(
        "waitFor",
        .object(["app": .string("a"), "event": .object(["type": .string("scheduled"), "identifier": .string("x")])])))
    let event = r?["event"]
    XCTAssertEqual(event?["type"], .string("scheduled"))
    XCTAssertEqual(event?["identifier"], .string("x"))
    XCTAssertEqual(event?["app"], .string("a"))
    XCTAssertEqual(event?["seq"], .int(1))
    XCTAssertEqual(event?["nextTriggerDate"], .string("2026-01-01T08:00:05.000Z"))
    // The app may also come from the filter.
    let fromFilter = result(
      call("waitFor", .object(["event": .object(["app": .string("a"), "type": .string("scheduled")])])))
    XCTAssertEqual(fromFilter?["event"]?["seq"], .int(1))
  }

  func testWaitForWithoutAMatchIsDeferred() throws {
    _ = try center.schedule(
      app: "a",
      NotificationRequest(
        identifier: "x", content: Content(), trigger: .timeInterval(try TimeIntervalTrigger(seconds: 5, repeats: false))
      ))
    let filter = JSONValue.object(["type": .string("fired")])
    let answer = call(
      "waitFor", .object(["app": .string("a"), "event": filter, "timeout": .double(2.5)]), id: .number("9"))
    guard case .deferred(let id, let wait)? = answer else { return XCTFail("\(String(describing: answer))") }
    XCTAssertEqual(id, .number("9"))
    XCTAssertEqual(wait.app, "a")
    XCTAssertEqual(wait.filter, filter)
    XCTAssertEqual(wait.timeoutMilliseconds, 2500)
    // Already recorded, but before `since`.
    let since = call(
      "waitFor",
      .object(["app": .string("a"), "event": .object(["type": .string("scheduled")]), "since": .int(1)]))
    guard case .deferred(_, let w2)? = since else { return XCTFail("\(String(describing: since))") }
    XCTAssertEqual(w2.timeoutMilliseconds, 10_000, "the default timeout is 10 s")
    // Another app's event does not match.
    let other = call("waitFor", .object(["app": .string("b"), "event": .object(["type": .string("scheduled")])]))
    guard case .deferred? = other else { return XCTFail("\(String(describing: other))") }
  }

  func testWaitForParamErrors() {
    XCTAssertEqual(error(call("waitFor", .object([])))?.message, "Invalid params: event: required")
    XCTAssertEqual(
      error(call("waitFor", .object(["event": .object([]), "timeout": .int(-1)])))?.message,
      "Invalid params: timeout: must be a number in 0...3600")
    XCTAssertEqual(
      error(call("waitFor", .object(["event": .string("fired")])))?.message,
      "Invalid params: event: expected an object, got a string")
  }

  func testMethodTableNamesAreUniqueAndIndexed() {
    let names = MethodTable.all.map { $0.name }
    XCTAssertEqual(Set(names).count, names.count, "duplicate method names")
    XCTAssertEqual(MethodTable.byName.count, names.count)
    for name in names {
      XCTAssertEqual(MethodTable.byName[name].map { $0.name }, name)
    }
    for expected in [
      "hello", "ping", "scheduleLocal", "listPending", "removePending", "listDelivered", "removeDelivered", "respond",
      "completeResponse", "advanceClock", "waitFor", "watch", "reset", "rpc.discover", "requestAuthorization",
      "getNotificationSettings", "setAuthorization", "pushRemote", "completeContent", "expand", "collapse", "interact",
      "completeExtensionResponse", "stats", "setBadgeCount", "getBadgeCount", "registerCategories", "getCategories",
      "setForeground", "setDeviceLocked",
    ] {
      XCTAssertNotNil(MethodTable.byName[expected], expected)
    }
  }

  func testEveryMethodAnswersArrayParamsWithInvalidParams() {
    for method in MethodTable.all {
      let e = error(call(method.name, .array([])))
      XCTAssertEqual(e?.code.rawValue, -32602, method.name)
    }
  }
}
