import Foundation
import UVLoop

/// What the daemon shares with a service manager: the notification socket, the watchdog
/// timer, and a listening socket inherited through socket activation.
///
/// Thread confinement: owned by `Server`, used only on the loop's thread.
final class ServiceLink {
  let environment: [String: String]
  let notifier: SystemdNotifier
  /// Pings `WATCHDOG=1`; a loop that stops turning stops the pings, which is the point.
  var watchdog: LoopTimer?
  /// The address of a listening socket passed by systemd: it is systemd's, so the
  /// daemon never removes it.
  var inheritedPath: String?

  init(environment: [String: String], log: Log) {
    self.environment = environment
    notifier = SystemdNotifier(environment: environment, log: log)
  }
}

extension Server {
  /// Adopts the first socket passed by systemd instead of binding one; false when none was.
  func adoptInheritedListener() throws -> Bool {
    let inherited: [SocketActivation.Listener]
    do {
      inherited = try SocketActivation.inheritedListeners(environment: endpoint.service.environment)
    } catch {
      throw StartupError("socket activation: \(error)")
    }
    guard let first = inherited.first else { return false }
    for extra in inherited.dropFirst() {
      log.warn("inherited_socket_ignored", ["fd": "\(extra.fd)", "socket": extra.path])
    }
    let server = try PipeServer(loop: loop)
    endpoint.listener = server
    try server.open(fd: first.fd)
    endpoint.service.inheritedPath = first.path
    try server.listen(backlog: 511) { [unowned self] server in self.accept(from: server) }
    return true
  }

  /// `--socket-group`: hands the socket file to a group (name or number) after bind.
  func applySocketGroup() throws {
    guard let group = configuration.socketGroup else { return }
    guard let gid = Self.groupID(group) else { throw StartupError("--socket-group: no group '\(group)'") }
    if chown(endpoint.socketPath, uid_t.max, gid) != 0 {
      throw StartupError("--socket-group: chgrp \(group) \(endpoint.socketPath): \(String(cString: strerror(errno)))")
    }
  }

  static func groupID(_ group: String) -> gid_t? {
    if let number = gid_t(group) { return number }
    guard let entry = getgrnam(group) else { return nil }
    return entry.pointee.gr_gid
  }

  /// `READY=1` once the socket accepts, and the watchdog when `WATCHDOG_USEC` asks for it.
  func notifyReady(listeningOn path: String) {
    let service = endpoint.service
    guard service.notifier.isEnabled else { return }
    service.notifier.ready(status: "Listening on \(path)")
    guard let interval = SystemdNotifier.watchdogInterval(environment: service.environment) else { return }
    do {
      let timer = try LoopTimer(loop: loop)
      try timer.start(afterMilliseconds: interval, repeatMilliseconds: interval) { [notifier = service.notifier] in
        notifier.watchdog()
      }
      service.watchdog = timer
      log.debug("watchdog", ["interval_ms": "\(interval)"])
    } catch {
      log.warn("watchdog_failed", ["error": "\(error)"])
    }
  }

  /// `STOPPING=1`; the watchdog stops with the loop's work.
  func notifyStopping(signal: Int32) {
    let service = endpoint.service
    service.watchdog?.close()
    service.watchdog = nil
    service.notifier.stopping(status: "Stopping on SIG\(signal == SIGTERM ? "TERM" : "INT")")
  }
}
