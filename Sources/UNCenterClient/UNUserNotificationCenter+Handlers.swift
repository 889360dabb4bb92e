import Foundation
import JSONRPC

/// A completion handler carried to the background queue that calls it.
/// `@unchecked Sendable`: the handler is called once, on one thread, as Apple calls its
/// completion handlers on a background queue; nothing else touches it.
struct Handler<T>: @unchecked Sendable {
  let body: T
}

/// Apple's completion-handler and synchronous forms.  Completion handlers run on a
/// background queue, as on iOS; the synchronous methods send at once, so calls reach
/// the daemon in the order they were made.
extension UNUserNotificationCenter {
  public func requestAuthorization(
    options: UNAuthorizationOptions = [], completionHandler: @escaping (Bool, (any Error)?) -> Void
  ) {
    let handler = Handler(body: completionHandler)
    send("requestAuthorization", Self.authorizationParams(options)) { result in
      switch result {
      case .success(let v): handler.body(v["granted"]?.boolValue ?? false, nil)
      case .failure(let e): handler.body(false, e)
      }
    }
  }

  public func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
    send(
      "registerCategories", Self.categoriesParams(categories.sorted { $0.identifier < $1.identifier }), completion: nil)
  }

  public func getNotificationCategories(completionHandler: @escaping (Set<UNNotificationCategory>) -> Void) {
    let handler = Handler(body: completionHandler)
    send("getCategories", nil) { result in handler.body(Set((try? Self.categories(result.get())) ?? [])) }
  }

  public func getNotificationSettings(completionHandler: @escaping (UNNotificationSettings) -> Void) {
    let handler = Handler(body: completionHandler)
    send("getNotificationSettings", nil) { result in
      handler.body((try? result.get()).map { UNNotificationSettings(wireValue: $0) } ?? UNNotificationSettings())
    }
  }

  public func add(
    _ request: UNNotificationRequest, withCompletionHandler completionHandler: (((any Error)?) -> Void)? = nil
  ) {
    let handler = completionHandler.map { Handler(body: $0) }
    send("scheduleLocal", request.wireValue) { [self] result in
      let error: (any Error)?
      do {
        try recordAdd(result.get())
        error = nil
      } catch {
        handler?.body(error)
        return
      }
      handler?.body(error)
    }
  }

  public func getPendingNotificationRequests(completionHandler: @escaping ([UNNotificationRequest]) -> Void) {
    let handler = Handler(body: completionHandler)
    Task { handler.body(await pendingNotificationRequests()) }
  }

  public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
    send("removePending", .object(["identifiers": .array(identifiers.map { .string($0) })]), completion: nil)
  }

  public func removeAllPendingNotificationRequests() { send("removePending", .object([]), completion: nil) }

  public func getDeliveredNotifications(completionHandler: @escaping ([UNNotification]) -> Void) {
    let handler = Handler(body: completionHandler)
    Task { handler.body(await deliveredNotifications()) }
  }

  public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
    send("removeDelivered", .object(["identifiers": .array(identifiers.map { .string($0) })]), completion: nil)
  }

  public func removeAllDeliveredNotifications() { send("removeDelivered", .object([]), completion: nil) }

  public func setBadgeCount(
    _ newBadgeCount: Int, withCompletionHandler completionHandler: (((any Error)?) -> Void)? = nil
  ) {
    let handler = completionHandler.map { Handler(body: $0) }
    if let invalid = Self.badgeError(newBadgeCount) {
      DispatchQueue.global().async { handler?.body(invalid) }
      return
    }
    send("setBadgeCount", .object(["count": .int(newBadgeCount)])) { result in
      handler?.body(result.failure)
    }
  }

  // MARK: shared by both forms

  static func authorizationParams(_ options: UNAuthorizationOptions) -> JSONValue {
    .object(["options": .array(options.wireNameList.map { .string($0) })])
  }

  static func categoriesParams(_ categories: [UNNotificationCategory]) -> JSONValue {
    .object(["categories": .array(categories.map(\.wireValue))])
  }

  static func categories(_ result: JSONValue) throws(UNCenterError) -> [UNNotificationCategory] {
    var out: [UNNotificationCategory] = []
    for c in result["categories"]?.arrayValue ?? [] { out.append(try UNNotificationCategory(wireValue: c)) }
    return out
  }

  /// Apple's `badgeInputInvalid` for a negative count, before anything is sent.
  static func badgeError(_ count: Int) -> UNError? {
    count < 0 ? UNError(.badgeInputInvalid, "the badge count must be >= 0, got \(count)") : nil
  }

  /// Keeps the warnings of a `scheduleLocal`; an app without authorization gets Apple's
  /// `notificationsNotAllowed`, as `add` reports it on iOS.
  func recordAdd(_ result: JSONValue) throws(UNError) {
    let warnings = Wire.strings(result["warnings"])
    link.withLock { $0.warnings = warnings }
    if result["scheduled"]?.boolValue == false,
      let why = warnings.first(where: { $0.contains("authorization") })
    {
      throw UNError(.notificationsNotAllowed, why)
    }
  }
}

extension Result {
  var failure: Failure? {
    if case .failure(let e) = self { return e }
    return nil
  }
}
