import Foundation
import JSONRPC

/// Apple's `async` forms, as the Swift importer makes them from the completion-handler
/// methods: the getters do not throw (a failure reads as nothing, as on iOS), `add`,
/// `setBadgeCount` and `requestAuthorization` do.
extension UNUserNotificationCenter {
  @discardableResult
  public func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
    let result = try await call("requestAuthorization", Self.authorizationParams(options))
    return result["granted"]?.boolValue ?? false
  }

  public func notificationCategories() async -> Set<UNNotificationCategory> {
    Set((try? await notificationCategoriesInOrder()) ?? [])
  }

  public func notificationSettings() async -> UNNotificationSettings {
    guard let result = try? await call("getNotificationSettings") else { return UNNotificationSettings() }
    return UNNotificationSettings(wireValue: result)
  }

  public func add(_ request: UNNotificationRequest) async throws {
    _ = try await addReturningWarnings(request)
  }

  public func pendingNotificationRequests() async -> [UNNotificationRequest] {
    (try? await pendingNotificationRequestsOrError()) ?? []
  }

  public func deliveredNotifications() async -> [UNNotification] {
    (try? await deliveredNotificationsOrError()) ?? []
  }

  public func setBadgeCount(_ newBadgeCount: Int) async throws {
    if let invalid = Self.badgeError(newBadgeCount) { throw invalid }
    _ = try await call("setBadgeCount", .object(["count": .int(newBadgeCount)]))
  }

  // MARK: beyond Apple's API

  /// Schedules a request and returns the daemon's warnings (empty when none); they are
  /// also kept in `lastWarnings`.
  @discardableResult
  public func addReturningWarnings(_ request: UNNotificationRequest) async throws -> [String] {
    let result = try await call("scheduleLocal", request.wireValue)
    try recordAdd(result)
    return lastWarnings
  }

  /// Registers the categories in this order (Apple's set form sorts them by identifier)
  /// and reports a failure.
  public func setNotificationCategoriesInOrder(_ categories: [UNNotificationCategory]) async throws {
    _ = try await call("registerCategories", Self.categoriesParams(categories))
  }

  /// The registered categories in registration order.
  public func notificationCategoriesInOrder() async throws -> [UNNotificationCategory] {
    try Self.categories(try await call("getCategories"))
  }

  /// Pending requests by next date, or the error that prevented reading them.
  public func pendingNotificationRequestsOrError() async throws -> [UNNotificationRequest] {
    var out: [UNNotificationRequest] = []
    var after: String?
    repeat {
      let result = try await call("listPending", after.map { .object(["after": .string($0)]) } ?? .object([]))
      for r in result["requests"]?.arrayValue ?? [] { out.append(try UNNotificationRequest(wireValue: r)) }
      after = result["next"]?.stringValue
    } while after != nil
    return out
  }

  /// Delivered notifications, newest first, or the error that prevented reading them.
  public func deliveredNotificationsOrError() async throws -> [UNNotification] {
    var out: [UNNotification] = []
    var after: String?
    repeat {
      let result = try await call("listDelivered", after.map { .object(["after": .string($0)]) } ?? .object([]))
      for n in result["notifications"]?.arrayValue ?? [] { out.append(try UNNotification(wireValue: n)) }
      after = result["next"]?.stringValue
    } while after != nil
    return out
  }

  /// Moves the app to the foreground or the background (only foreground apps get `present`).
  public func setForeground(_ foreground: Bool) async throws {
    _ = try await call("setForeground", .object(["foreground": .bool(foreground)]))
  }
}
