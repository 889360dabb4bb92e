import JSONRPC
import UNDesktop
import UNModel

/// The one place the center's effects are executed (the center knows no consumer of
/// them; docs/ARCHITECTURE.md, "A request from socket to commit"): each effect goes
/// to the desktop bridge (one call, it picks what it shows), and a callback to its
/// connection's output, an event to the log, watchers and waits.  Everything that can
/// cause effects (a request, a timer, a disconnect, a desktop answer) runs through
/// `Runner.run`, which calls `route()` afterwards.
///
/// Loop-confined, owned by `Server`.
final class EffectRouter {
  let center: Center
  let connections: Connections
  let outbox: Outbox
  let watchers: EventWatchers
  let presentations: PresentationTimers
  /// `--desktop`: the bridge to the desktop's notification server (Server+Desktop.swift).
  var desktop: DesktopBridge?
  init(
    center: Center, connections: Connections, outbox: Outbox, watchers: EventWatchers,
    presentations: PresentationTimers
  ) {
    self.center = center
    self.connections = connections
    self.outbox = outbox
    self.watchers = watchers
    self.presentations = presentations
  }

  func route() {
    // Only the effects queued so far: routing may queue new ones, which the next call
    // takes.  Each is moved out of the queue and taken apart, not copied.
    var remaining = center.effects.count
    while remaining > 0 {
      remaining -= 1
      let effect = center.effects.removeFirst()
      desktop?.consume(effect)
      switch consume effect {
      case .callback(let session, let callback):
        if case .presentForDecision(_, _, _, let id) = callback { presentations.start(id) }
        guard let client = connections.clients[session], client.condition.isLive else { continue }
        var bytes: [UInt8] = []
        CallbackMessage.append(callback, to: &bytes)
        outbox.queueCallback(bytes, to: client)
      case .event(let event):
        watchers.publish(event)
      }
    }
  }
}
