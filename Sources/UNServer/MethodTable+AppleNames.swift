import UNModel

extension MethodTable {
  /// Apple's names for what a method of the table does (UNUserNotificationCenter, its
  /// delegate and the extensions; Swift, async and Objective-C spellings, without their
  /// argument labels), so that a call by Apple's name is answered with the method to
  /// use instead.  Only hints: none of these is callable.
  static let appleNames: [String: String] = [
    "add": "scheduleLocal",
    "addNotificationRequest": "scheduleLocal",
    "getPendingNotificationRequests": "listPending",
    "getPendingNotificationRequestsWithCompletionHandler": "listPending",
    "pendingNotificationRequests": "listPending",
    "getDeliveredNotifications": "listDelivered",
    "getDeliveredNotificationsWithCompletionHandler": "listDelivered",
    "deliveredNotifications": "listDelivered",
    "removePendingNotificationRequests": "removePending",
    "removePendingNotificationRequestsWithIdentifiers": "removePending",
    "removeAllPendingNotificationRequests": "removePending",
    "removeDeliveredNotifications": "removeDelivered",
    "removeDeliveredNotificationsWithIdentifiers": "removeDelivered",
    "removeAllDeliveredNotifications": "removeDelivered",
    "setNotificationCategories": "registerCategories",
    "getNotificationCategories": "getCategories",
    "getNotificationCategoriesWithCompletionHandler": "getCategories",
    "notificationCategories": "getCategories",
    "requestAuthorizationWithOptions": "requestAuthorization",
    "getNotificationSettingsWithCompletionHandler": "getNotificationSettings",
    "notificationSettings": "getNotificationSettings",
    "setApplicationIconBadgeNumber": "setBadgeCount",
    "applicationIconBadgeNumber": "setBadgeCount",
    // The delegate: the app answers the `present` and `receive` callbacks with these.
    "userNotificationCenter(_:willPresent:withCompletionHandler:)": "completePresentation",
    "userNotificationCenter(_:willPresent:)": "completePresentation",
    "userNotificationCenter:willPresentNotification:withCompletionHandler:": "completePresentation",
    "willPresent": "completePresentation",
    "userNotificationCenter(_:didReceive:withCompletionHandler:)": "completeResponse",
    "userNotificationCenter(_:didReceive:)": "completeResponse",
    "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:": "completeResponse",
    // A service extension answers `modifyContent`, a content extension `didReceiveResponse`.
    "didReceive(_:withContentHandler:)": "completeContent",
    "didReceiveNotificationRequest:withContentHandler:": "completeContent",
    "contentHandler": "completeContent",
    "didReceive(_:completionHandler:)": "completeExtensionResponse",
    "didReceiveNotificationResponse:completionHandler:": "completeExtensionResponse",
  ]

  /// The method an unknown `name` most likely meant, for the hint of its `-32601`: its
  /// Apple name's method (with or without argument labels), else a method equal to it but
  /// for case or within edit distance 2.  Only run for an unknown method.
  static func suggestion(for name: String) -> String? {
    if let ours = appleNames[name] { return ours }
    // `removePendingNotificationRequests(withIdentifiers:)`, `setBadgeCount:withCompletionHandler:`.
    let base = String(name.prefix { $0 != "(" && $0 != ":" })
    if base != name {
      if let ours = appleNames[base] { return ours }
      if byName[base] != nil { return base }
    }
    let lower = base.lowercased()
    var best: (name: String, distance: Int)?
    for method in all + protocolMethods {
      let candidate = method.name.lowercased()
      let d = candidate == lower ? 0 : editDistance(lower, candidate, limit: 2)
      if d <= 2, d < base.count, best == nil || d < best!.distance { best = (method.name, d) }
    }
    return best?.name
  }
}
