/// A foreground notification waiting for the app's `willPresent` answer.
///
/// iOS calls the delegate's `userNotificationCenter(_:willPresent:withCompletionHandler:)`
/// and shows (or lists) the notification only once the completion handler runs, with the
/// options it was given.  A connection that said `hello {presentationDecision:
/// "delegate"}` gets `present` with a `presentationId` and answers with
/// `completePresentation`; until then the notification is neither listed nor counted as
/// presented.  The first answer decides; when every deciding connection is gone, or the
/// server's real-time limit passes, the options they declared in `hello` apply.
public struct PendingPresentation: Sendable, Hashable {
  public var app: String
  public var notification: DeliveredNotification
  /// The deciding connections that got it, with the options each declared (the fallback).
  public var waiting: [SessionID: [PresentationOption]]
  /// A `declared` connection of the same app asked for `list` or `banner`: it is kept
  /// whatever the answer, as when several connections' options are combined today.
  public var declaredKeep: Bool
  /// How many connections got `present` (the `presented` event's `connections`).
  public var connections: Int
}

extension Center {
  /// Sends `present` to each target, holding the notification when at least one of them
  /// decides; returns false (nothing sent) when none does.
  func presentForDecision(_ appId: String, _ notification: DeliveredNotification, to targets: [SessionID]) -> Bool {
    guard targets.contains(where: { sessions[$0]?.presentationDecision == .delegate }) else { return false }
    unstored.presentation += 1
    let id = "pres-\(unstored.presentation)"
    var pending = PendingPresentation(
      app: appId, notification: notification, waiting: [:], declaredKeep: false, connections: targets.count)
    for session in targets {
      guard let info = sessions[session] else { continue }
      let actions = info.surface.actions(for: notification.category)
      if info.presentationDecision == .delegate {
        effects.append(
          .callback(
            session,
            .presentForDecision(notification, actions: actions, presentation: info.presentation, presentationId: id)))
        pending.waiting[session] = info.presentation
      } else {
        effects.append(.callback(session, .present(notification, actions: actions, presentation: info.presentation)))
        if info.presentation.contains(.list) || info.presentation.contains(.banner) { pending.declaredKeep = true }
      }
    }
    pendingPresentations[id] = pending
    return true
  }

  /// `completePresentation`: the app's `willPresent` completed with `options`.  `[]`
  /// means neither shown nor listed, as `completionHandler([])` on iOS.
  public func completePresentation(app appId: String, presentationId: String, options: [PresentationOption])
    throws(UNError)
  {
    guard let pending = pendingPresentations[presentationId], pending.app.exactlyEquals(appId) else {
      throw .notFound(kind: "presentation", identifier: presentationId)
    }
    finishPresentation(presentationId, options: options)
  }

  /// The real-time limit passed without an answer: the declared options apply.
  public func expirePresentation(_ presentationId: String) {
    guard let pending = pendingPresentations[presentationId] else { return }
    finishPresentation(presentationId, options: Self.union(pending.waiting.values))
  }

  /// A deciding connection went away: what it was asked no longer waits for it; when
  /// nobody is left to answer, the options it declared apply.
  func releasePresentations(of session: SessionID) {
    for (id, pending) in pendingPresentations.sorted(by: { $0.key < $1.key }) {
      guard let declared = pending.waiting[session] else { continue }
      pendingPresentations[id]?.waiting[session] = nil
      if pendingPresentations[id]?.waiting.isEmpty == true { finishPresentation(id, options: declared) }
    }
  }

  /// A newer delivery of the same request replaces one still waiting for its answer.
  func dropPresentations(app appId: String, identifier: String) {
    guard !pendingPresentations.isEmpty else { return }
    pendingPresentations = pendingPresentations.filter {
      !($0.value.app.exactlyEquals(appId) && $0.value.notification.identifier.exactlyEquals(identifier))
    }
  }

  private func finishPresentation(_ id: String, options: [PresentationOption]) {
    guard let pending = pendingPresentations.removeValue(forKey: id) else { return }
    let options = Self.union([options])
    let identifier = pending.notification.identifier
    let keep = pending.declaredKeep || options.contains(.list) || options.contains(.banner)
    emit(
      .presented, app: pending.app,
      [
        ("identifier", .string(identifier)), ("connections", .int(pending.connections)),
        ("presentation", .strings(options.map(\.rawValue))),
      ])
    if keep { emit(.delivered, app: pending.app, identifier: identifier) }
    withApp(pending.app) { app in app.setDelivered(identifier, keep ? pending.notification : nil) }
    if keep { trimDelivered(app: pending.app) }
  }

  /// The options of several connections together, in the canonical order.
  static func union(_ lists: some Sequence<[PresentationOption]>) -> [PresentationOption] {
    let all = Set(lists.joined())
    return PresentationOption.allCases.filter { all.contains($0) }
  }
}
