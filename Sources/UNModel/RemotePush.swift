/// An APNs payload already mapped to content by the server (SPEC §7).
public struct RemotePush: Sendable, Hashable {
  public var content: Content
  /// The whole payload, as received (it is also the content's `userInfo`).
  public var payload: JSONText
  /// `mutable-content: 1`: a service extension may modify it first.
  public var mutableContent: Bool
  /// `content-available: 1` without alert, badge or sound: nothing is shown.
  public var silent: Bool

  public init(content: Content, payload: JSONText, mutableContent: Bool, silent: Bool) {
    self.content = content
    self.payload = payload
    self.mutableContent = mutableContent
    self.silent = silent
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
