/// `UNUserNotificationCenterDelegate`, with Apple's async method shapes.
///
/// Both methods are called from the center's callback task, one callback at a time and
/// in the order the daemon sent them; the center does not wait for one app-side
/// action to finish before reading the socket, so a delegate may call back into the
/// center (for example `deliveredNotifications()`) without deadlock.
public protocol UNUserNotificationCenterDelegate: AnyObject, Sendable {
  /// A notification arrived while the app is in the foreground (`present`).
  ///
  /// The daemon has already decided how it is shown, from the presentation options the
  /// app gave to `connect` (its `hello`); the value returned here is informational and
  /// is not sent back.  To change what happens, connect with other `presentation`
  /// options.
  func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions

  /// The user responded to a notification (`receive`).  For a background action (the
  /// daemon sets a deadline) the center sends `completeResponse` when this returns, as
  /// calling the completion handler does on iOS.
  func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
}

extension UNUserNotificationCenterDelegate {
  public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions { [] }

  public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse)
    async
  {}
}
