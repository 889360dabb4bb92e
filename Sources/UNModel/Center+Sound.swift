extension Center {
  /// Whether the app may play critical alerts: authorized with `criticalAlert` granted
  /// (its `criticalAlertSetting` is `enabled`).
  func allowsCriticalAlerts(_ app: AppState?) -> Bool {
    guard let app, app.authorization == .authorized || app.authorization == .ephemeral else { return false }
    return app.grantedOptions.contains(.criticalAlert)
  }

  /// The request as it is delivered: a critical sound or interruption level counts only
  /// for an app allowed critical alerts; for the others it is a normal sound at the
  /// `active` level, as iOS delivers it.
  func gatedForCriticalAlerts(_ request: NotificationRequest, app: AppState?) -> NotificationRequest {
    let c = request.content
    guard c.sound?.critical == true || c.interruptionLevel == .critical, !allowsCriticalAlerts(app) else {
      return request
    }
    var r = request
    if let sound = c.sound, sound.critical { r.content.sound = sound.uncritical }
    if c.interruptionLevel == .critical { r.content.interruptionLevel = .active }
    return r
  }

  /// A notification without alert text (badge only, sound only): iOS sets the badge and
  /// plays the sound, and shows nothing: no `present`, no entry in the delivered list.
  func deliverWithoutAlert(app appId: String, _ request: NotificationRequest) -> Bool {
    let app = self.app(appId)
    emit(.delivered, app: appId, [("identifier", .string(request.identifier)), ("shown", .bool(false))])
    if let sound = request.content.sound, app.authorization == .authorized || app.authorization == .ephemeral,
      app.grantedOptions.contains(.sound)
    {
      emit(
        .soundPlayed, app: appId,
        [
          ("identifier", .string(request.identifier)), ("sound", .string(sound.wireName)),
          ("critical", .bool(sound.critical)),
        ])
    }
    if let badge = request.content.badge { withApp(appId) { $0.badge = badge } }
    return true
  }
}
