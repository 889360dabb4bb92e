/// A notification the server sends on the center's behalf.
public enum Callback: Sendable, Hashable {
  /// `willPresent`: the notification, the actions as this connection's surface shows
  /// them, and the connection's declared presentation options.
  case present(DeliveredNotification, actions: [Action], presentation: [PresentationOption])
  /// `willPresent` to a connection that decides (`presentationDecision: delegate`): it
  /// answers `completePresentation {presentationId, options}`.
  case presentForDecision(
    DeliveredNotification, actions: [Action], presentation: [PresentationOption], presentationId: String)
  /// `didReceive`; `deadline` for background actions only.
  case receive(NotificationResponse, deadline: Instant?)
  /// A silent push (`content-available`) for the app.
  case remote(payload: JSONText)
  /// To the service extension: modify this request's content before it is shown.
  case modifyContent(requestId: String, request: NotificationRequest, deadline: Instant)
  /// To the service extension: its time is up; one more second before the original is shown.
  case serviceTimeWillExpire(requestId: String)
  /// To the content extension: show this notification (expanded, or a new one arrived).
  case didReceive(DeliveredNotification)
  /// To the content extension: the user chose an action while it was showing.
  case didReceiveResponse(responseId: String, response: NotificationResponse)
  /// To the content extension: a control in its custom view was used.
  case interaction(identifier: String, control: String, value: JSONText)
}

/// Something the server must do after a center call: callbacks to connections, in order.
public enum Effect: Sendable, Hashable {
  /// Boxed: a callback is far larger than an event, and every effect would otherwise be
  /// as large (moved for each `scheduleLocal`'s event).
  indirect case callback(SessionID, Callback)
  /// A state change for observers (already numbered and kept in the history).
  case event(Event)
}
