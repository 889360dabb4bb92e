import Foundation
import JSONRPC
import TestSupport
import UNCenterClient
import XCTest

/// The center against a real daemon: calls, errors, callbacks to the delegate.
final class CenterRoundTripTests: XCTestCase {
  static let app = "com.example.chat"
  var daemon: DaemonProcess!

  override func setUpWithError() throws { daemon = try DaemonProcess() }
  override func tearDown() {
    daemon?.stop()
    if let daemon { try? FileManager.default.removeItem(atPath: daemon.directory) }
    daemon = nil
  }

  func connect(delegate: (any UNUserNotificationCenterDelegate)? = nil, foreground: Bool = true) async throws
    -> UNUserNotificationCenter
  {
    try await UNUserNotificationCenter.connect(
      appId: Self.app, socketPath: daemon.socketPath, foreground: foreground, delegate: delegate)
  }

  func message(_ id: String, after seconds: TimeInterval?, category: String = "message") -> UNNotificationRequest {
    let content = UNMutableNotificationContent()
    content.title = "Nowa wiadomość"
    content.body = "Anna: \(id)"
    content.categoryIdentifier = category
    content.threadIdentifier = "chat_123"
    content.userInfo = ["chatId": "chat_123", "n": 1]
    return UNNotificationRequest(
      identifier: id, content: content,
      trigger: seconds.map { UNTimeIntervalNotificationTrigger(timeInterval: $0, repeats: false) })
  }

  func testConnectSaysHelloAndBecomesCurrent() async throws {
    let center = try await connect()
    defer { center.close() }
    XCTAssertEqual(center.helloResult["server"], .string("uncenterd"))
    XCTAssertEqual(center.helloResult["clock"]?["mode"], .string("manual"))
    XCTAssertTrue(UNUserNotificationCenter.current() === center)
    XCTAssertEqual(center.socketPath, daemon.socketPath)
  }

  func testCategoriesRoundTrip() async throws {
    let center = try await connect()
    defer { center.close() }
    let other = UNNotificationCategory(
      identifier: "invite", actions: [UNNotificationAction(identifier: "accept", title: "Akceptuj", options: [])],
      intentIdentifiers: [], hiddenPreviewsBodyPlaceholder: "Zaproszenie", categorySummaryFormat: "%u zaproszeń",
      options: [.allowInCarPlay])
    try await center.setNotificationCategoriesInOrder([WireShapeTests.seedCategory(), other])
    let read = await center.notificationCategories()
    XCTAssertEqual(read, [WireShapeTests.seedCategory(), other])
    let ordered = try await center.notificationCategoriesInOrder()
    XCTAssertEqual(ordered.map(\.identifier), ["message", "invite"])
    // The set form registers too, replacing the whole set.
    center.setNotificationCategories(Set([other]))
    let after = await center.notificationCategories()
    XCTAssertEqual(after, [other])
  }

  func testAddAndPendingRequests() async throws {
    let center = try await connect()
    defer { center.close() }
    try await center.setNotificationCategoriesInOrder([WireShapeTests.seedCategory()])
    let full = UNNotificationRequest(
      identifier: "full", content: WireShapeTests.fullContent(),
      trigger: UNTimeIntervalNotificationTrigger(timeInterval: 120, repeats: true))
    try await center.add(message("b", after: 10))
    try await center.add(full)
    try await center.add(message("a", after: 5))
    XCTAssertEqual(center.lastWarnings, [])
    let pending = await center.pendingNotificationRequests()
    XCTAssertEqual(pending.map(\.identifier), ["a", "b", "full"])
    XCTAssertEqual(pending[2], full)
    XCTAssertEqual(pending[2].content.userInfo["unread"] as? Int, 3)
    XCTAssertEqual(pending[0].nextTriggerDate, Date(timeIntervalSince1970: 1_767_254_405))
    let trigger = try XCTUnwrap(pending[2].trigger as? UNTimeIntervalNotificationTrigger)
    XCTAssertEqual(trigger, UNTimeIntervalNotificationTrigger(timeInterval: 120, repeats: true))

    center.removePendingNotificationRequests(withIdentifiers: ["b"])
    let left = await center.pendingNotificationRequests()
    XCTAssertEqual(left.map(\.identifier), ["a", "full"])
    center.removeAllPendingNotificationRequests()
    let none = await center.pendingNotificationRequests()
    XCTAssertEqual(none, [])
  }

  func testWarningForAnUnregisteredCategory() async throws {
    let center = try await connect()
    defer { center.close() }
    try await center.setNotificationCategoriesInOrder([WireShapeTests.seedCategory()])
    let warnings = try await center.addReturningWarnings(message("m", after: 5, category: "Message"))
    XCTAssertEqual(warnings, ["category 'Message' is not registered; did you mean 'message'?"])
    XCTAssertEqual(center.lastWarnings, warnings)
  }

  func testInvalidTriggersThrowTheDaemonsMessage() async throws {
    let center = try await connect()
    defer { center.close() }
    do {
      try await center.add(message("zero", after: 0))
      XCTFail("a zero interval was accepted")
    } catch let error as UNCenterError {
      XCTAssertEqual(error.code, UNErrorCode.invalidTrigger)
      XCTAssertEqual(error.message, "time interval must be greater than 0")
      guard case .rpc(_, _, let data) = error else { return XCTFail("not an rpc error: \(error)") }
      XCTAssertEqual(data?["reason"], .string("invalidTrigger"))
    }
    do {
      let content = UNMutableNotificationContent()
      try await center.add(
        UNNotificationRequest(
          identifier: "r", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: true)
        ))
      XCTFail("a 30 s repeating interval was accepted")
    } catch let error as UNCenterError {
      XCTAssertEqual(error.message, "time interval must be at least 60 if repeating")
    }
    let pending = await center.pendingNotificationRequests()
    XCTAssertEqual(pending, [])
  }

  func testAuthorizationSettingsAndBadge() async throws {
    let center = try await connect()
    defer { center.close() }
    let granted = try await center.requestAuthorization(options: [.alert, .sound, .badge])
    XCTAssertTrue(granted)
    let settings = await center.notificationSettings()
    XCTAssertEqual(settings.authorizationStatus, .authorized)
    XCTAssertEqual(settings.alertSetting, .enabled)
    XCTAssertEqual(settings.soundSetting, .enabled)
    try await center.setBadgeCount(7)
    let badge = try await center.call("getBadgeCount")
    XCTAssertEqual(badge["count"]?.intValue, 7)
  }

  func testPresentCallsWillPresentAndReplyReachesDidReceive() async throws {
    let delegate = RecordingDelegate()
    let center = try await connect(delegate: delegate)
    defer { center.close() }
    try await center.setNotificationCategoriesInOrder([WireShapeTests.seedCategory()])
    try await center.add(message("m1", after: 5))

    let user = try daemon.user(app: Self.app)
    let fired = try user.ok("advanceClock", .object(["seconds": .int(5)]))
    XCTAssertEqual(fired["fired"], .array([.string("m1")]))
    guard case .willPresent(let n)? = await delegate.next() else { return XCTFail("no willPresent") }
    XCTAssertEqual(n.request.identifier, "m1")
    XCTAssertEqual(n.request.content.body, "Anna: m1")
    XCTAssertEqual(n.actions.map(\.identifier), ["reply", "delete"])
    XCTAssertEqual(n.date, Date(timeIntervalSince1970: 1_767_254_405))

    let delivered = await center.deliveredNotifications()
    XCTAssertEqual(delivered.map(\.request.identifier), ["m1"])

    _ = try user.ok(
      "respond",
      .object(["identifier": .string("m1"), "actionIdentifier": .string("reply"), "userText": .string("Dzięki")]))
    guard case .didReceive(let r)? = await delegate.next() else { return XCTFail("no didReceive") }
    XCTAssertEqual(r.actionIdentifier, "reply")
    XCTAssertEqual((r as? UNTextInputNotificationResponse)?.userText, "Dzięki")
    XCTAssertEqual(r.notification.request.identifier, "m1")
    XCTAssertEqual(r.notification.request.content.userInfo["chatId"] as? String, "chat_123")
    let after = await center.deliveredNotifications()
    XCTAssertEqual(after, [])
  }

  func testBackgroundActionIsCompletedAfterDidReceive() async throws {
    let delegate = RecordingDelegate(holdDidReceive: true)
    let center = try await connect(delegate: delegate)
    defer { center.close() }
    try await center.setNotificationCategoriesInOrder([WireShapeTests.seedCategory()])
    try await center.add(message("m2", after: 1))
    let user = try daemon.user(app: Self.app)
    _ = try user.ok("advanceClock", .object(["seconds": .int(1)]))
    guard case .willPresent? = await delegate.next() else { return XCTFail("no willPresent") }
    // The banner is there once the app's willPresent answer reached the daemon (as on a
    // phone, the user cannot tap it before): the answer travels on the app's connection,
    // the response on the user's.
    _ = try user.ok(
      "waitFor",
      .object(["event": .object(["type": .string("presented"), "identifier": .string("m2")]), "timeout": .int(10)]))

    let r = try user.ok("respond", .object(["identifier": .string("m2"), "actionIdentifier": .string("delete")]))
    let responseId = try XCTUnwrap(r["responseId"]?.stringValue)
    guard case .didReceive(let response)? = await delegate.next() else { return XCTFail("no didReceive") }
    XCTAssertEqual(response.actionIdentifier, "delete")
    XCTAssertFalse(response is UNTextInputNotificationResponse)
    XCTAssertEqual(response.responseId, responseId)
    // While didReceive runs, the background action is open.
    let during = try user.ok("stats")
    XCTAssertEqual(during["openResponses"]?.intValue, 1)

    // The center sends completeResponse once didReceive has returned.
    delegate.release()
    await center.drainCallbacks()
    let stats = try user.ok("stats")
    XCTAssertEqual(stats["openResponses"]?.intValue, 0)
    guard case .failure(let again) = try user.call("completeResponse", .object(["responseId": .string(responseId)]))
    else { return XCTFail("a second completeResponse succeeded") }
    XCTAssertEqual(again.code.rawValue, UNErrorCode.notFound)
  }

  func testQueuedResponseGoesToTheDelegateGivenToConnect() async throws {
    do {
      let center = try await connect()
      try await center.setNotificationCategoriesInOrder([WireShapeTests.seedCategory()])
      try await center.add(message("q", after: 1))
      center.close()
    }
    let user = try daemon.user(app: Self.app)
    // The app is not running: the notification goes to the list, the response is queued.
    _ = try user.ok("advanceClock", .object(["seconds": .int(1)]))
    let r = try user.ok(
      "respond",
      .object(["identifier": .string("q"), "actionIdentifier": .string("reply"), "userText": .string("Hej")]))
    XCTAssertEqual(r["queued"], .bool(true))

    let delegate = RecordingDelegate()
    let center = try await connect(delegate: delegate)
    defer { center.close() }
    XCTAssertEqual(center.helloResult["queuedResponses"]?.intValue, 1)
    guard case .didReceive(let response)? = await delegate.next() else { return XCTFail("no didReceive") }
    XCTAssertEqual((response as? UNTextInputNotificationResponse)?.userText, "Hej")
  }

  func testConcurrentCallsFromManyTasks() async throws {
    let center = try await connect()
    defer { center.close() }
    let requests = (0..<40).map { message(String(format: "m%02d", $0), after: Double(100 + $0)) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for request in requests {
        group.addTask { try await center.add(request) }
      }
      try await group.waitForAll()
    }
    let pending = await center.pendingNotificationRequests()
    XCTAssertEqual(pending.map(\.identifier), (0..<40).map { String(format: "m%02d", $0) })
  }

  func testCloseFailsOutstandingAndLaterCalls() async throws {
    let center = try await connect()
    let waiting = Task {
      try await center.call(
        "waitFor", .object(["event": .object(["type": .string("neverHappens")]), "timeout": .int(20)]))
    }
    try await Task.sleep(nanoseconds: 100_000_000)
    let started = Date()
    center.close()
    do {
      _ = try await waiting.value
      XCTFail("the outstanding call succeeded")
    } catch let error as UNCenterError {
      guard case .connection = error else { return XCTFail("unexpected \(error)") }
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    do {
      _ = try await center.pendingNotificationRequestsOrError()
      XCTFail("a call after close succeeded")
    } catch let error as UNCenterError {
      guard case .connection = error else { return XCTFail("unexpected \(error)") }
    }
  }

  func testConnectingToNoDaemonThrows() async {
    do {
      _ = try await UNUserNotificationCenter.connect(appId: Self.app, socketPath: "/tmp/unc-no-such-daemon.sock")
      XCTFail("connected to nothing")
    } catch let error as UNCenterError {
      guard case .connection(let reason) = error else { return XCTFail("unexpected \(error)") }
      XCTAssertTrue(reason.contains("/tmp/unc-no-such-daemon.sock"), reason)
    } catch {
      XCTFail("unexpected \(error)")
    }
  }

  /// The async willPresent's answer decides: `[]` is neither shown nor listed.
  func testWillPresentAnswerDecidesTheDeliveredList() async throws {
    let delegate = RecordingDelegate(presentationAnswer: [])
    let center = try await connect(delegate: delegate)
    defer { center.close() }
    try await center.add(message("quiet", after: nil))
    guard case .willPresent? = await delegate.next() else { return XCTFail("no willPresent") }
    await center.drainCallbacks()
    let user = try daemon.user(app: Self.app)
    let presented = try user.ok(
      "waitFor",
      .object(["event": .object(["type": .string("presented"), "identifier": .string("quiet")]), "timeout": .int(10)]))
    XCTAssertEqual(presented["event"]?["presentation"], .array([]))
    let delivered = await center.deliveredNotifications()
    XCTAssertEqual(delivered, [])
  }
}
