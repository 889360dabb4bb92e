import Foundation
import JSONRPC

/// The action identifier of a tap on the notification itself.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// The action identifier of a dismissal (sent only for categories with `.customDismissAction`).
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// `UNNotificationRequest`: content plus the trigger that delivers it (nil: now).  The
/// content is copied when the request is made, as on iOS, so changing a
/// `UNMutableNotificationContent` afterwards changes nothing.
///
/// `@unchecked Sendable`: immutable; the content is an immutable copy.
open class UNNotificationRequest: NSObject, NSCopying, @unchecked Sendable {
  public let identifier: String
  public let content: UNNotificationContent
  public let trigger: UNNotificationTrigger?
  /// When a pending request fires next, as reported by `pendingNotificationRequests()`
  /// (also its trigger's `nextTriggerDate()`), computed by the daemon's clock.
  public private(set) var nextTriggerDate: Date?

  public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
    self.identifier = identifier
    self.content = UNNotificationContent(fields: content.fields)
    self.trigger = trigger
  }

  public func copy(with zone: NSZone? = nil) -> Any { self }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationRequest else { return false }
    return wireValue == other.wireValue
  }

  open override var hash: Int { identifier.hashValue }

  /// `{identifier, content, trigger}` as `scheduleLocal` takes it.
  public var wireValue: JSONValue {
    .object(["identifier": .string(identifier), "content": content.wireValue, "trigger": trigger?.wireValue ?? .null])
  }

  public convenience init(wireValue v: JSONValue) throws(UNCenterError) {
    let trigger = UNNotificationTrigger.from(wireValue: v["trigger"])
    let next = Wire.date(v["nextTriggerDate"])
    trigger?.scheduledDate = next
    self.init(
      identifier: try Wire.string(v, "identifier"), content: UNNotificationContent(wireValue: v["content"] ?? .null),
      trigger: trigger)
    nextTriggerDate = next
  }
}

/// `UNNotification`: a delivered request.
///
/// `@unchecked Sendable`: immutable.
open class UNNotification: NSObject, @unchecked Sendable {
  public let date: Date
  public let request: UNNotificationRequest
  /// The actions shown with it (its category's at delivery time, as the surface allows).
  public let actions: [UNNotificationAction]

  public init(date: Date, request: UNNotificationRequest, actions: [UNNotificationAction] = []) {
    self.date = date
    self.request = request
    self.actions = actions
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotification else { return false }
    return date == other.date && request == other.request && actions == other.actions
  }

  open override var hash: Int { request.hash }

  /// `{identifier, date, request, actions}`.
  public convenience init(wireValue v: JSONValue) throws(UNCenterError) {
    guard let request = v["request"] else { throw .invalidResponse("notification without a request: \(Wire.text(v))") }
    var actions: [UNNotificationAction] = []
    for a in v["actions"]?.arrayValue ?? [] { actions.append(try UNNotificationAction.from(wireValue: a)) }
    self.init(
      date: Wire.date(v["date"]) ?? Date(timeIntervalSince1970: 0),
      request: try UNNotificationRequest(wireValue: request), actions: actions)
  }
}

/// `UNNotificationResponse`: what the user did with a notification.  A text-input
/// action's response is the subclass `UNTextInputNotificationResponse`, so
/// `response as? UNTextInputNotificationResponse` tells them apart as on iOS.
///
/// `@unchecked Sendable`: immutable.
open class UNNotificationResponse: NSObject, @unchecked Sendable {
  public let notification: UNNotification
  public let actionIdentifier: String
  /// The daemon's handle, used for `completeResponse` after a background action.
  public let responseId: String

  public init(responseId: String, actionIdentifier: String, notification: UNNotification) {
    self.responseId = responseId
    self.actionIdentifier = actionIdentifier
    self.notification = notification
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationResponse else { return false }
    return responseId == other.responseId && actionIdentifier == other.actionIdentifier
      && notification == other.notification
      && (self as? UNTextInputNotificationResponse)?.userText == (other as? UNTextInputNotificationResponse)?.userText
  }

  open override var hash: Int { responseId.hashValue }

  /// `{responseId, actionIdentifier, userText?, notification}`: with `userText`, a
  /// `UNTextInputNotificationResponse`.
  public static func from(wireValue v: JSONValue) throws(UNCenterError) -> UNNotificationResponse {
    guard let n = v["notification"] else { throw .invalidResponse("response without a notification: \(Wire.text(v))") }
    let id = try Wire.string(v, "responseId")
    let action = try Wire.string(v, "actionIdentifier")
    let notification = try UNNotification(wireValue: n)
    if let text = v["userText"]?.stringValue {
      return UNTextInputNotificationResponse(
        responseId: id, actionIdentifier: action, notification: notification, userText: text)
    }
    return UNNotificationResponse(responseId: id, actionIdentifier: action, notification: notification)
  }
}

/// `UNTextInputNotificationResponse`: the response to a text-input action.
open class UNTextInputNotificationResponse: UNNotificationResponse, @unchecked Sendable {
  public let userText: String

  public init(responseId: String, actionIdentifier: String, notification: UNNotification, userText: String) {
    self.userText = userText
    super.init(responseId: responseId, actionIdentifier: actionIdentifier, notification: notification)
  }
}
