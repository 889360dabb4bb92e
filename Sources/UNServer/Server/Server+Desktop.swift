import Foundation
import JSONRPC
import UNDesktop
import UNModel

/// `--desktop`: the bridge to the desktop's notification server (proto-docs/README.md,
/// "Desktop: org.freedesktop.Notifications").  It gets every effect `EffectRouter`
/// executes, reads the delivered list as `listDelivered` does, and answers through the
/// `respond` method, like a `user` connection.
extension Server {
  func startDesktop() {
    switch configuration.desktop {
    case .off:
      return
    case .auto:
      let reachable = DesktopMode.sessionBusReachable(
        environment: endpoint.service.environment, explicitAddress: configuration.desktopBus,
        fileExists: { FileManager.default.fileExists(atPath: $0) })
      guard reachable else {
        log.info("desktop_off", ["reason": "no session bus (DBUS_SESSION_BUS_ADDRESS unset, no $XDG_RUNTIME_DIR/bus)"])
        return
      }
    case .freedesktop:
      break
    }
    let log = self.log
    let bridge = DesktopBridge(
      loop: loop, address: configuration.desktopBus,
      log: { level, event, fields in
        switch level {
        case .debug: log.emit(.debug, event, fields)
        case .info: log.emit(.info, event, fields)
        case .warn: log.emit(.warn, event, fields)
        }
      },
      lookup: { [unowned self] app, identifier in self.center.apps[app]?.delivered[identifier] })
    let user = ClientState(id: 0, peer: nil)
    bridge.onAnswer = { [unowned self] answer in self.respond(answer, as: user) }
    router.desktop = bridge
    metrics.desktop = bridge
    bridge.start()
  }

  /// The person at the desktop answered: a `respond` through the method table, with
  /// every rule it has; its callbacks go out as a call's would.
  private func respond(_ answer: DesktopAnswer, as user: ClientState) -> Bool {
    var params = [
      JSONMember("app", .string(answer.app)), JSONMember("identifier", .string(answer.identifier)),
      JSONMember("actionIdentifier", .string(answer.actionIdentifier)),
    ]
    if let text = answer.userText { params.append(JSONMember("userText", .string(text))) }
    let request = Request(id: .number("0"), method: "respond", params: .object(params))
    let outcome = runner.run { dispatcher.handle(.request(request), from: user) }
    if case .error(_, let error)? = outcome {
      log.warn(
        "desktop_answer_refused",
        ["app": answer.app, "id": answer.identifier, "action": answer.actionIdentifier, "error": error.message])
      return false
    }
    return true
  }
}
