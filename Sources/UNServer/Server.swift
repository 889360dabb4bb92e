import Foundation
import JSONRPC
import UNDesktop
import UNModel
import UNStore
import UVLoop

/// The daemon: one libuv loop serving the socket, the center, and the timer for the
/// earliest trigger.  Everything here runs on the loop's thread, which owns all state
/// (as Redis's single `server` struct): no locks, no data races by construction.
public final class Server {
  let loop: EventLoop
  let configuration: ServerConfiguration
  let log: Log
  let center: Center
  let dispatcher: Dispatcher
  let socketPath: String
  var listener: PipeServer?
  var clients: [SessionID: ClientConnection] = [:]
  var dirty: [ClientConnection] = []
  var waits: [PendingWait] = []
  /// Real-time limits of presentations waiting for an app's willPresent answer, by id.
  var presentationTimers: [String: LoopTimer] = [:]
  let metrics = Metrics()
  var nextSessionID: SessionID = 1
  let timer: LoopTimer
  let check: LoopCheck
  var signals: [SignalWatcher] = []
  /// The trigger date the timer is armed for (real clock).
  var armedDeadline: Instant?
  var stopping = false
  /// Set when the store failed: the daemon stops with a non-zero status.
  var fatalStoreError = false
  /// Reused for encoding one message before framing it.
  var scratch: [UInt8] = []
  /// Reused for taking the center's effects (`routeEffects`).
  var effectBuffer: [Effect] = []
  /// The durable store, with `--state`.
  let persistence: Persistence?
  /// systemd: notifications, watchdog, inherited socket (Server+Service.swift).
  let service: ServiceLink
  /// `--desktop`: the bridge to the desktop's notification server (Server+Desktop.swift).
  var desktop: DesktopBridge?
  /// The environment the daemon started with (the session bus for `--desktop auto`).
  let environment: [String: String]

  public init(configuration: ServerConfiguration, environment: [String: String]) throws {
    self.configuration = configuration
    self.environment = environment
    self.log = Log(level: configuration.logLevel)
    let clock: any Clock
    switch configuration.clock {
    case .real: clock = SystemClock()
    case .manual(let start): clock = ManualClock(start ?? SystemClock().now)
    }
    center = Center(clock: clock, configuration: configuration.center)
    dispatcher = Dispatcher(center: center, configuration: configuration, log: log, metrics: metrics)
    socketPath = SocketPath.resolve(explicit: configuration.socketPath, environment: environment, uid: getuid())
    loop = try EventLoop()
    timer = try LoopTimer(loop: loop)
    check = try LoopCheck(loop: loop)
    service = ServiceLink(environment: environment, log: Log(level: configuration.logLevel))
    guard let directory = configuration.stateDirectory else {
      persistence = nil
      return
    }
    let store = try SQLiteStore(directory: directory, durability: configuration.durability)
    persistence = Persistence(store: store)
    center.changes.isEnabled = true
    try persistence!.load(into: center)
    log.info(
      "state_loaded",
      ["dir": directory, "apps": "\(center.apps.count)", "pending": "\(center.apps.values.reduce(0) { $0 + $1.pending.count })"])
    if !center.clock.isManual {
      // Triggers missed while the daemon was down fire once, marked late (SPEC §8).
      let missed = center.fireDue(upTo: center.clock.now, late: true)
      if !missed.isEmpty { log.info("caught_up", ["fired": "\(missed.count)"]) }
      _ = center.takeEffects()
    }
    try persistence!.commit(center)
  }

  /// Binds, serves until SIGTERM/SIGINT, cleans up.  Returns the exit status.
  public func run() -> Int32 {
    do {
      // Signals first: a SIGTERM sent as soon as the socket file appears must stop the
      // daemon cleanly, not kill it with the socket file left behind.
      for signal in [SIGTERM, SIGINT] {
        let watcher = try SignalWatcher(loop: loop)
        try watcher.start(signal: signal) { [unowned self] sig in self.stop(signal: sig) }
        signals.append(watcher)
      }
      try listen()
      try check.start { [unowned self] in self.endOfIteration() }
    } catch {
      log.error("startup_failed", ["socket": socketPath, "error": "\(error)"])
      try? loop.closeAllHandlesAndClose()
      log.flush()
      return 1
    }
    let mode = center.clock.isManual ? "manual" : "real"
    // systemd: an inherited socket is logged by its own address; READY=1 once it accepts.
    if let inherited = service.inheritedPath {
      log.info("listening", ["socket": inherited, "inherited": "true", "clock": mode, "now": center.clock.now.rfc3339])
    } else {
      log.info("listening", ["socket": socketPath, "clock": mode, "now": center.clock.now.rfc3339])
    }
    startDesktop()
    notifyReady(listeningOn: service.inheritedPath ?? socketPath)
    _ = loop.run()
    do {
      // The shutdown watchdog timer does not keep the loop alive and may still be open.
      try loop.closeAllHandlesAndClose()
    } catch {
      log.warn("loop_close", ["error": "\(error)"])
    }
    log.info("stopped")
    log.flush()
    return fatalStoreError ? 1 : 0
  }

  private func listen() throws {
    // systemd socket activation: adopt the passed socket instead of binding (Server+Service.swift).
    if try adoptInheritedListener() { return }
    switch SocketProbe.probe(socketPath) {
    case .absent: break
    case .stale:
      log.info("stale_socket_replaced", ["socket": socketPath])
      unlink(socketPath)
    case .live:
      throw StartupError("another uncenterd is already listening on \(socketPath)")
    case .notASocket:
      throw StartupError("\(socketPath) exists and is not a socket; refusing to replace it")
    }
    let server = try PipeServer(loop: loop)
    listener = server
    try server.bind(path: socketPath, mode: mode_t(configuration.socketMode))
    try applySocketGroup()  // --socket-group (Server+Service.swift)
    try server.listen(backlog: 511) { [unowned self] server in self.accept(from: server) }
  }

  /// SIGTERM/SIGINT: stop accepting, answer what was read, flush, close, remove the socket.
  func stop(signal: Int32) {
    guard !stopping else { return }
    stopping = true
    log.info("stopping", ["signal": signal == SIGTERM ? "TERM" : "INT"])
    notifyStopping(signal: signal)  // systemd: STOPPING=1, watchdog off
    listener?.close()
    listener = nil
    // A socket inherited from systemd is systemd's: never remove it.
    if service.inheritedPath == nil { unlink(socketPath) }
    timer.close()
    desktop?.stop()
    for wait in waits { wait.timer.close() }
    waits.removeAll()
    for timer in presentationTimers.values { timer.close() }
    presentationTimers.removeAll()
    for signal in signals { signal.close() }
    for client in clients.values { beginClosing(client) }
    commitState()
    flushAll()
    check.close()
    // A client that never reads must not hold the daemon up for ever.
    if let deadline = try? LoopTimer(loop: loop) {
      try? deadline.start(afterMilliseconds: 3000) { [unowned self] in
        for client in self.clients.values { client.stream.close() }
        self.clients.removeAll()
        deadline.close()
      }
      deadline.keepsLoopAlive = false
    }
  }
}

struct StartupError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
