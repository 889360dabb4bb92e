/// `UNUserNotificationCenterDelegate`, in all of Apple's forms.
///
/// Implement either form of each method (completion handler or `async`), as on iOS;
/// whichever the delegate implements is called exactly once per notification or
/// response.  The center calls the completion-handler form; its default implementation
/// calls the `async` form, whose default answers as an unimplemented method does on iOS
/// (`willPresent`: not shown; `didReceive`: nothing).  Any class can be the delegate (it
/// need not be `Sendable`): every method is called on the main queue, which is why
/// they are `@MainActor` here.
public protocol UNUserNotificationCenterDelegate: AnyObject {
  /// A notification arrived while the app is in the foreground (`present`): the options
  /// given to the completion handler decide how it is shown (`[]`: not shown, not listed).
  @MainActor func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void)

  @MainActor func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions

  /// The user responded to a notification (`receive`).  For a background action the
  /// completion handler sends `completeResponse`, as it tells iOS the work is done.
  @MainActor func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping @Sendable () -> Void)

  @MainActor func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse)
    async

  /// The user asked for the app's notification settings.  The daemon has no Settings
  /// app, so it is never called; it exists so that delegates written for iOS compile.
  @MainActor func userNotificationCenter(
    _ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

extension UNUserNotificationCenterDelegate {
  /// Not implemented in this form: the `async` form answers.
  @MainActor public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
  ) {
    Task { @MainActor in
      completionHandler(await self.userNotificationCenter(center, willPresent: notification))
    }
  }

  /// Neither form implemented: not presented (`[]`), as on iOS (a center made by
  /// `connect(…, presentation:)` answers with those options instead).
  @MainActor public func userNotificationCenter(
    _ center: UNUserNotificationCenter, willPresent notification: UNNotification
  ) async -> UNNotificationPresentationOptions { center.presentationFallback }

  /// Not implemented in this form: the `async` form runs, then the response is complete.
  @MainActor public func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping @Sendable () -> Void
  ) {
    Task { @MainActor in
      await self.userNotificationCenter(center, didReceive: response)
      completionHandler()
    }
  }

  @MainActor public func userNotificationCenter(
    _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse
  ) async {}

  @MainActor public func userNotificationCenter(
    _ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?
  ) {}
}
