/// An APNs payload already mapped to content by the server (proto-docs/README.md,
/// "Remote payloads").
public struct RemotePush: Sendable, Hashable {
  public var content: Content
  /// The whole payload, as received (it is also the content's `userInfo`).
  public var payload: JSONText
  /// `mutable-content: 1`: a service extension may modify it first.
  public var mutableContent: Bool
  /// `content-available: 1` without alert, badge or sound: nothing is shown.
  public var silent: Bool
  /// `content-available: 1`: the app is woken (`remote`), with or without an alert.
  public var contentAvailable: Bool
  /// The alert's `loc-key` family, resolved with the app's strings when it is delivered.
  public var localization: LocalizedAlert?
  /// A Live Activity update (`aps.event`: start, update, end): ActivityKit shows it, not
  /// Notification Center, so it is accepted and not shown.
  public var liveActivityEvent: String?
  /// The keys APNs and iOS ignore (ill-typed, out of range), each named; the push still goes.
  public var warnings: [String]

  public init(
    content: Content, payload: JSONText, mutableContent: Bool, silent: Bool, contentAvailable: Bool? = nil,
    localization: LocalizedAlert? = nil, liveActivityEvent: String? = nil, warnings: [String] = []
  ) {
    self.content = content
    self.payload = payload
    self.mutableContent = mutableContent
    self.silent = silent
    self.contentAvailable = contentAvailable ?? silent
    self.localization = localization
    self.liveActivityEvent = liveActivityEvent
    self.warnings = warnings
  }
}

/// `title-loc-key`/`title-loc-args`, `subtitle-loc-key`/`subtitle-loc-args`,
/// `loc-key`/`loc-args`: formats looked up in the app's strings (the key itself when the
/// app has none), with the arguments substituted.
public struct LocalizedAlert: Sendable, Hashable {
  public var title: (key: String, args: [String])?
  public var subtitle: (key: String, args: [String])?
  public var body: (key: String, args: [String])?

  public init(
    title: (key: String, args: [String])? = nil, subtitle: (key: String, args: [String])? = nil,
    body: (key: String, args: [String])? = nil
  ) {
    self.title = title
    self.subtitle = subtitle
    self.body = body
  }

  public var isEmpty: Bool { title == nil && subtitle == nil && body == nil }

  public static func == (a: LocalizedAlert, b: LocalizedAlert) -> Bool {
    a.title?.key == b.title?.key && a.title?.args == b.title?.args && a.subtitle?.key == b.subtitle?.key
      && a.subtitle?.args == b.subtitle?.args && a.body?.key == b.body?.key && a.body?.args == b.body?.args
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(title?.key)
    hasher.combine(subtitle?.key)
    hasher.combine(body?.key)
  }
}

extension Content {
  /// Alert text a person would see: a title, subtitle or body.
  public var hasAlertText: Bool { !title.isEmpty || !subtitle.isEmpty || !body.isEmpty }
}

/// A push waiting for the service extension's `completeContent`.
public struct PendingModification: Sendable {
  public var requestId: String
  public var app: String
  public var request: NotificationRequest
  public var session: SessionID
  public var deadline: Instant
  /// `serviceTimeWillExpire` was sent; the original goes out one second later.
  public var warned = false

  public init(
    requestId: String, app: String, request: NotificationRequest, session: SessionID, deadline: Instant,
    warned: Bool = false
  ) {
    self.requestId = requestId
    self.app = app
    self.request = request
    self.session = session
    self.deadline = deadline
    self.warned = warned
  }
}

/// A response waiting for the content extension's `completeExtensionResponse`.
public struct PendingExtensionResponse: Sendable {
  public var app: String
  public var prepared: PreparedResponse
  /// The content extension connection it was sent to (-1 after a restart: nobody can
  /// answer it any more, so it is forwarded at its deadline).
  public var session: SessionID = -1
}
