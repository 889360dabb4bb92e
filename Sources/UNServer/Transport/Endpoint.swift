import Foundation
import UVLoop

/// How the daemon meets the outside world: its socket (bound, or inherited from
/// systemd), the signals that stop it, and the service manager link.
///
/// Loop-confined, owned by `Server`.
final class Endpoint {
  /// The socket path the daemon binds (unless systemd passed one).
  let socketPath: String
  var listener: PipeServer?
  var signals: [SignalWatcher] = []
  /// systemd: notifications, watchdog, inherited socket (Server+Service.swift).
  let service: ServiceLink

  init(socketPath: String, service: ServiceLink) {
    self.socketPath = socketPath
    self.service = service
  }

  /// Stops accepting; a bound socket file is removed (an inherited one is systemd's).
  func close() {
    listener?.close()
    listener = nil
    if service.inheritedPath == nil { unlink(socketPath) }
    for signal in signals { signal.close() }
    signals.removeAll()
  }
}
