import UNModel

/// The calls to `org.freedesktop.Notifications` and its signals.
extension DesktopBridge {
  static let name = "org.freedesktop.Notifications"
  static let path = "/org/freedesktop/Notifications"

  /// `Notify`, replacing what is shown for the same request, or queued behind a `Notify`
  /// still in flight for it.
  func show(app: String, _ notification: DeliveredNotification) {
    guard let capabilities, let bus, NotifyArguments.hasAlertText(notification.request.content) else { return }
    let identifier = notification.identifier
    if var entry = shown[app]?[identifier], entry.serverId == nil {
      entry.queued = notification
      entry.closeWhenKnown = false
      shown[app]![identifier] = entry
      return
    }
    let replaces = shown[app]?[identifier]?.serverId ?? 0
    let arguments = NotifyArguments(
      app: app, notification: notification, capabilities: capabilities, replacesId: replaces)
    let replyAction =
      capabilities.contains("actions") && capabilities.contains("inline-reply")
      ? notification.actions.first { $0.textInput != nil }?.identifier : nil
    shown[app, default: [:]][identifier] = Shown(serverId: nil, replyAction: replyAction)
    if replaces != 0 { byServerId[replaces] = nil }
    let epoch = self.epoch
    do {
      try bus.call(
        destination: Self.name, path: Self.path, interface: Self.name, member: "Notify",
        arguments: { (m) throws(DesktopError) in
          try m.append(arguments.appName)
          try m.append(arguments.replacesId)
          try m.append(arguments.appIcon)
          try m.append(arguments.summary)
          try m.append(arguments.body)
          try m.append(strings: arguments.actions)
          try m.append(hints: arguments.hints)
          try m.append(arguments.expireTimeout)
        },
        reply: { [weak self] result in self?.notified(app: app, identifier: identifier, epoch: epoch, result) })
    } catch {
      shown[app]?[identifier] = nil
      counters.failed += 1
      log(.warn, "desktop_notify_failed", [("app", app), ("id", identifier), ("error", "\(error)")])
    }
  }

  private func notified(app: String, identifier: String, epoch: Int, _ result: Result<BusMessage, BusCallError>) {
    guard epoch == self.epoch, var entry = shown[app]?[identifier], entry.serverId == nil else { return }
    guard case .success(let reply) = result, let serverId = reply.readUInt32() else {
      shown[app]?[identifier] = nil
      counters.failed += 1
      if case .failure(let error) = result {
        log(.warn, "desktop_notify_failed", [("app", app), ("id", identifier), ("error", "\(error)")])
      }
      return
    }
    counters.shown += 1
    entry.serverId = serverId
    byServerId[serverId] = (app, identifier)
    log(.debug, "desktop_shown", [("app", app), ("id", identifier), ("server_id", "\(serverId)")])
    let queued = entry.queued
    let closing = entry.closeWhenKnown
    entry.queued = nil
    shown[app]![identifier] = entry
    if closing {
      close(app: app, identifier: identifier)
    } else if let queued {
      show(app: app, queued)
    }
  }

  /// `CloseNotification` for a banner whose notification left the delivered list.
  func close(app: String, identifier: String) {
    guard var entry = shown[app]?[identifier] else { return }
    guard let serverId = entry.serverId else {
      entry.closeWhenKnown = true
      entry.queued = nil
      shown[app]![identifier] = entry
      return
    }
    forget(app: app, identifier: identifier)
    guard let bus else { return }
    do {
      try bus.call(
        destination: Self.name, path: Self.path, interface: Self.name, member: "CloseNotification",
        arguments: { (m) throws(DesktopError) in try m.append(serverId) },
        reply: { [weak self] result in
          guard let self else { return }
          switch result {
          case .success: self.counters.closed += 1
          case .failure(let error):
            self.counters.failed += 1
            self.log(.warn, "desktop_close_failed", [("app", app), ("id", identifier), ("error", "\(error)")])
          }
        })
    } catch {
      counters.failed += 1
    }
  }

  func forget(app: String, identifier: String) {
    guard let entry = shown[app]?.removeValue(forKey: identifier) else { return }
    if shown[app]?.isEmpty == true { shown[app] = nil }
    if let id = entry.serverId { byServerId[id] = nil }
  }

  /// A signal from the server about one of our notifications.
  func received(_ signal: DesktopSignal, from sender: String?) {
    if let serverOwner, let sender, sender != serverOwner { return }
    guard let (app, identifier) = byServerId[signal.id], let entry = shown[app]?[identifier] else { return }
    if case .closed = signal { forget(app: app, identifier: identifier) }
    guard let answer = DesktopAnswer.from(signal, app: app, identifier: identifier, replyAction: entry.replyAction)
    else { return }
    log(.info, "desktop_answer", [("app", app), ("id", identifier), ("action", answer.actionIdentifier)])
    if onAnswer?(answer) == true {
      counters.answered += 1
    } else {
      counters.failed += 1
    }
  }
}
