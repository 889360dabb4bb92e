/// `UNNotificationRequest`: an identifier, content and trigger.
public struct NotificationRequest: Sendable, Hashable {
  public var identifier: String
  public var content: Content
  public var trigger: Trigger?

  public init(identifier: String, content: Content, trigger: Trigger?) {
    self.identifier = identifier
    self.content = content
    self.trigger = trigger
  }
}

/// A request waiting to fire, with the anchor its dates are computed from.
public struct PendingRequest: Sendable, Hashable {
  public var request: NotificationRequest
  /// When it was added: time-interval slots are `anchor + k * interval`.
  public var anchor: Instant
  public var nextDate: Instant
  /// Order of addition across the app, for `--ios-limits` (keep the most recently added).
  public var addedSequence: UInt64

  public var identifier: String { request.identifier }

  public init(request: NotificationRequest, anchor: Instant, nextDate: Instant, addedSequence: UInt64) {
    self.request = request
    self.anchor = anchor
    self.nextDate = nextDate
    self.addedSequence = addedSequence
  }
}

/// `UNNotification`: a delivered notification with the actions shown with it.
public struct DeliveredNotification: Sendable, Hashable {
  public var identifier: String { request.identifier }
  /// The trigger date (the scheduled fire date, not when the daemon got round to it).
  public var date: Instant
  public var request: NotificationRequest
  /// The category as it was at delivery time (nil when not registered): rule 6 says the
  /// actions shown are those of the category at delivery time.
  public var category: Category?
  /// Delivery order, to break ties between equal dates (newest first).
  public var sequence: UInt64
  /// Fired late (real-clock catch-up after a restart).
  public var late: Bool

  /// The actions shown on the phone surface (`listDelivered`, `respond`).
  public var actions: [Action] { Surface.phone.actions(for: category) }

  public init(date: Instant, request: NotificationRequest, category: Category?, sequence: UInt64, late: Bool) {
    self.date = date
    self.request = request
    self.category = category
    self.sequence = sequence
    self.late = late
  }
}

/// `UNNotificationResponse`.
public struct NotificationResponse: Sendable, Hashable {
  public var responseId: String
  public var actionIdentifier: String
  public var userText: String?
  public var notification: DeliveredNotification

  public init(responseId: String, actionIdentifier: String, userText: String?, notification: DeliveredNotification) {
    self.responseId = responseId
    self.actionIdentifier = actionIdentifier
    self.userText = userText
    self.notification = notification
  }
}

/// Apple's reserved action identifiers.
public enum SystemAction {
  public static let defaultAction = "com.apple.UNNotificationDefaultActionIdentifier"
  public static let dismissAction = "com.apple.UNNotificationDismissActionIdentifier"
}
