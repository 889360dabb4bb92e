import Foundation
import JSONRPC

/// The action identifier of a tap on the notification itself.
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// The action identifier of a dismissal (sent only for categories with `.customDismissAction`).
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// `UNNotificationRequest`: content plus the trigger that delivers it (nil: now).
public struct UNNotificationRequest: Sendable, Hashable {
  public let identifier: String
  public let content: UNNotificationContent
  public let trigger: (any UNNotificationTrigger)?
  /// When a pending request fires next, as reported by `pendingNotificationRequests()`
  /// (Apple's `trigger.nextTriggerDate()`, computed by the daemon's clock).
  public internal(set) var nextTriggerDate: Date?

  public init(identifier: String, content: UNNotificationContent, trigger: (any UNNotificationTrigger)?) {
    self.identifier = identifier
    self.content = content
    self.trigger = trigger
  }

  /// Takes a snapshot of the mutable content, as iOS copies it.
  public init(identifier: String, content: UNMutableNotificationContent, trigger: (any UNNotificationTrigger)?) {
    self.init(identifier: identifier, content: content.content, trigger: trigger)
  }

  public static func == (a: UNNotificationRequest, b: UNNotificationRequest) -> Bool {
    a.identifier == b.identifier && a.content == b.content && TriggerWire.encode(a.trigger) == TriggerWire.encode(b.trigger)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(identifier)
    hasher.combine(content)
  }

  /// `{identifier, content, trigger}` as `scheduleLocal` takes it.
  public var wireValue: JSONValue {
    .object([
      "identifier": .string(identifier), "content": content.wireValue, "trigger": TriggerWire.encode(trigger),
    ])
  }

  public init(wireValue v: JSONValue) throws(UNCenterError) {
    self.init(
      identifier: try Wire.string(v, "identifier"), content: UNNotificationContent(wireValue: v["content"] ?? .null),
      trigger: TriggerWire.decode(v["trigger"]))
    nextTriggerDate = Wire.date(v["nextTriggerDate"])
  }
}

/// `UNNotification`: a delivered request.
public struct UNNotification: Sendable, Hashable {
  public let date: Date
  public let request: UNNotificationRequest
  /// The actions shown with it (its category's at delivery time, as the surface allows).
  public let actions: [UNNotificationAction]

  public init(date: Date, request: UNNotificationRequest, actions: [UNNotificationAction] = []) {
    self.date = date
    self.request = request
    self.actions = actions
  }

  /// `{identifier, date, request, actions}`.
  public init(wireValue v: JSONValue) throws(UNCenterError) {
    guard let request = v["request"] else { throw .invalidResponse("notification without a request: \(Wire.text(v))") }
    var actions: [UNNotificationAction] = []
    for a in v["actions"]?.arrayValue ?? [] { actions.append(try UNNotificationAction(wireValue: a)) }
    self.init(
      date: Wire.date(v["date"]) ?? Date(timeIntervalSince1970: 0),
      request: try UNNotificationRequest(wireValue: request), actions: actions)
  }
}

/// `UNNotificationResponse`: what the user did with a notification.  Apple's
/// `UNTextInputNotificationResponse` subclass is this type with `userText` set.
public struct UNNotificationResponse: Sendable, Hashable {
  /// The daemon's handle, used for `completeResponse` after a background action.
  public let responseId: String
  public let actionIdentifier: String
  public let notification: UNNotification
  /// The text typed into a text-input action, nil otherwise.
  public let userText: String?

  public init(responseId: String, actionIdentifier: String, notification: UNNotification, userText: String? = nil) {
    self.responseId = responseId
    self.actionIdentifier = actionIdentifier
    self.notification = notification
    self.userText = userText
  }

  /// `{responseId, actionIdentifier, userText?, notification}`.
  public init(wireValue v: JSONValue) throws(UNCenterError) {
    guard let n = v["notification"] else { throw .invalidResponse("response without a notification: \(Wire.text(v))") }
    self.init(
      responseId: try Wire.string(v, "responseId"), actionIdentifier: try Wire.string(v, "actionIdentifier"),
      notification: try UNNotification(wireValue: n), userText: v["userText"]?.stringValue)
  }
}

/// Apple's text-input response subclass: the same type, with `userText` set.
public typealias UNTextInputNotificationResponse = UNNotificationResponse
