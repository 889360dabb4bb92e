import Foundation
import JSONRPC
import Synchronization

/// `UNUserNotificationCenter`: one app's connection to `uncenterd`.
///
/// Create it with `connect(appId:…)`; the most recent one is also returned by
/// `current()`, so iOS code that says `UNUserNotificationCenter.current()` ports with
/// a `try await` added to each call.  All methods may be called from any task.
public final class UNUserNotificationCenter: Sendable {
  private struct WeakDelegate {
    weak var value: (any UNUserNotificationCenterDelegate)?
  }

  public let appId: String
  /// The socket path it connected to.
  public let socketPath: String
  /// The daemon's answer to `hello`: server, version, protocol, clock, queuedResponses.
  public var helloResult: JSONValue { hello.withLock { $0 } }
  private let hello = Mutex<JSONValue>(.null)
  let connection: CenterConnection
  private let delegateBox = Mutex(WeakDelegate())
  private let warnings = Mutex<[String]>([])

  private static let currentCenter = Mutex<UNUserNotificationCenter?>(nil)

  private init(appId: String, connection: CenterConnection) {
    self.appId = appId
    self.socketPath = connection.path
    self.connection = connection
  }

  deinit { connection.close() }

  /// Connects to the daemon (socket from `socketPath`, else `$UNCENTER_SOCKET`, else
  /// `$XDG_RUNTIME_DIR/uncenterd.sock`, else `/tmp/uncenterd-$UID.sock`) and says
  /// `hello {role: "app", appId, foreground, presentation}`.  Pass the delegate here
  /// to receive responses the daemon queued while the app was not running: they are
  /// sent right after `hello`.
  public static func connect(
    appId: String, socketPath: String? = nil, foreground: Bool = true,
    presentation: UNNotificationPresentationOptions = [.banner, .list, .sound, .badge],
    delegate: (any UNUserNotificationCenterDelegate)? = nil
  ) async throws -> UNUserNotificationCenter {
    let path = SocketPath.resolve(
      explicit: socketPath, environment: ProcessInfo.processInfo.environment, uid: UInt32(getuid()))
    let connection = try CenterConnection(path: path)
    let center = UNUserNotificationCenter(appId: appId, connection: connection)
    center.delegate = delegate
    center.startCallbackTask()
    do {
      let result = try await connection.call(
        "hello",
        .object([
          "role": .string("app"), "appId": .string(appId), "foreground": .bool(foreground),
          "presentation": .array(presentation.wireNameList.map { .string($0) }),
        ]))
      center.hello.withLock { $0 = result }
    } catch {
      connection.close()
      throw error
    }
    currentCenter.withLock { $0 = center }
    return center
  }

  /// The center most recently connected (Apple's `current()`); call `connect` first.
  public static func current() -> UNUserNotificationCenter {
    guard let center = currentCenter.withLock({ $0 }) else {
      preconditionFailure("UNUserNotificationCenter.current(): call UNUserNotificationCenter.connect(appId:) first")
    }
    return center
  }

  /// Receives `present` and `receive` callbacks; held weakly, as on iOS.
  public var delegate: (any UNUserNotificationCenterDelegate)? {
    get { delegateBox.withLock { $0.value } }
    set { delegateBox.withLock { $0.value = newValue } }
  }

  /// The warnings of the last `add` (for example an unregistered category).
  public var lastWarnings: [String] { warnings.withLock { $0 } }

  /// Closes the connection; calls in flight fail with `UNCenterError.connection`.
  public func close() {
    connection.close()
    Self.currentCenter.withLock { if $0 === self { $0 = nil } }
  }

  /// Waits until every callback received so far has been handed to the delegate and
  /// finished (including the `completeResponse` of background actions).
  public func drainCallbacks() async { await connection.drainCallbacks() }

  /// Any method of the daemon, for what this API does not cover.
  public func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
    try await connection.call(method, params)
  }

  // MARK: categories

  public func setNotificationCategories(_ categories: Set<UNNotificationCategory>) async throws {
    try await setNotificationCategories(categories.sorted { $0.identifier < $1.identifier })
  }

  /// Registers the categories in this order (the set form sorts them by identifier).
  public func setNotificationCategories(_ categories: [UNNotificationCategory]) async throws {
    _ = try await call("registerCategories", .object(["categories": .array(categories.map(\.wireValue))]))
  }

  public func notificationCategories() async throws -> Set<UNNotificationCategory> {
    Set(try await notificationCategoriesInOrder())
  }

  /// The registered categories in registration order.
  public func notificationCategoriesInOrder() async throws -> [UNNotificationCategory] {
    let result = try await call("getCategories")
    var out: [UNNotificationCategory] = []
    for c in result["categories"]?.arrayValue ?? [] { out.append(try UNNotificationCategory(wireValue: c)) }
    return out
  }

  // MARK: pending requests

  /// Schedules (or replaces) a request.  Warnings, as the daemon words them, are kept in
  /// `lastWarnings`.
  public func add(_ request: UNNotificationRequest) async throws {
    _ = try await addReturningWarnings(request)
  }

  /// Schedules a request and returns the daemon's warnings (empty when none).
  @discardableResult
  public func addReturningWarnings(_ request: UNNotificationRequest) async throws -> [String] {
    let result = try await call("scheduleLocal", request.wireValue)
    let list = Wire.strings(result["warnings"])
    warnings.withLock { $0 = list }
    return list
  }

  public func pendingNotificationRequests() async throws -> [UNNotificationRequest] {
    var out: [UNNotificationRequest] = []
    var after: String?
    repeat {
      let result = try await call("listPending", after.map { .object(["after": .string($0)]) } ?? .object([]))
      for r in result["requests"]?.arrayValue ?? [] { out.append(try UNNotificationRequest(wireValue: r)) }
      after = result["next"]?.stringValue
    } while after != nil
    return out
  }

  public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async throws {
    _ = try await call("removePending", .object(["identifiers": .array(identifiers.map { .string($0) })]))
  }

  public func removeAllPendingNotificationRequests() async throws {
    _ = try await call("removePending", .object([]))
  }

  // MARK: delivered notifications

  /// Delivered notifications, newest first.
  public func deliveredNotifications() async throws -> [UNNotification] {
    var out: [UNNotification] = []
    var after: String?
    repeat {
      let result = try await call("listDelivered", after.map { .object(["after": .string($0)]) } ?? .object([]))
      for n in result["notifications"]?.arrayValue ?? [] { out.append(try UNNotification(wireValue: n)) }
      after = result["next"]?.stringValue
    } while after != nil
    return out
  }

  public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async throws {
    _ = try await call("removeDelivered", .object(["identifiers": .array(identifiers.map { .string($0) })]))
  }

  public func removeAllDeliveredNotifications() async throws {
    _ = try await call("removeDelivered", .object([]))
  }

  // MARK: authorization, settings, badge, state

  public func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
    let result = try await call(
      "requestAuthorization", .object(["options": .array(options.wireNameList.map { .string($0) })]))
    return result["granted"]?.boolValue ?? false
  }

  public func notificationSettings() async throws -> UNNotificationSettings {
    UNNotificationSettings(wireValue: try await call("getNotificationSettings"))
  }

  public func setBadgeCount(_ count: Int) async throws {
    _ = try await call("setBadgeCount", .object(["count": .int(count)]))
  }

  /// Moves the app to the foreground or the background (only foreground apps get `present`).
  public func setForeground(_ foreground: Bool) async throws {
    _ = try await call("setForeground", .object(["foreground": .bool(foreground)]))
  }

  // MARK: callbacks

  private func startCallbackTask() {
    let stream = connection.callbacks
    Task.detached { [weak self] in
      for await item in stream {
        switch item {
        case .barrier(let continuation):
          continuation.resume()
        case .message(let method, let params):
          guard let self else { continue }
          await self.handleCallback(method, params)
        }
      }
    }
  }

  private func handleCallback(_ method: String, _ params: JSONValue) async {
    switch method {
    case "present":
      guard let n = params["notification"], let notification = try? UNNotification(wireValue: n) else { return }
      if let delegate { _ = await delegate.userNotificationCenter(self, willPresent: notification) }
    case "receive":
      guard let r = params["response"], let response = try? UNNotificationResponse(wireValue: r) else { return }
      if let delegate { await delegate.userNotificationCenter(self, didReceive: response) }
      if params["deadline"] != nil, params["deadline"] != .null {
        _ = try? await connection.call("completeResponse", .object(["responseId": .string(response.responseId)]))
      }
    default:
      break
    }
  }
}
