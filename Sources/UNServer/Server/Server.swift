import Foundation
import JSONRPC
import UNDesktop
import UNEndpoint
import UNModel
import UNStore
import UVLoop

/// The daemon: one libuv loop serving the socket, the center, and the timer for the
/// earliest trigger.  Everything here runs on the loop's thread, which owns all state
/// (as Redis's single `server` struct): no locks, no data races by construction.  The
/// only other thread is the store's writer with `--state` (`Committer`).
///
/// Its parts, one job each: `Connections` (the connections and their conditions),
/// `Outbox` (what is written to them), `Runner` (the one way a center operation runs),
/// `EffectRouter` (the center's effects, with `EventWatchers` and `PresentationTimers`),
/// `TriggerTimer`, `Committer` and `Endpoint`.  Reading requests is `Server+Requests.swift`.
public final class Server {
  let loop: EventLoop
  let dispatcher: Dispatcher
  let connections: Connections
  let outbox: Outbox
  let router: EffectRouter
  /// Runs every center operation and routes its effects.
  let runner: Runner
  let trigger: TriggerTimer
  /// With `--state`: commits off the loop, answers after their commit.
  let commits: Committer?
  let endpoint: Endpoint
  /// The end of every loop iteration (`endOfIteration`).
  let check: LoopCheck
  /// Keeps the loop awake briefly after it handled requests.
  let busyPoll: BusyPoll
  var phase = Phase.serving

  enum Phase {
    case serving
    /// SIGTERM/SIGINT.
    case stopping
  }

  var configuration: ServerConfiguration { dispatcher.configuration }
  var log: Log { dispatcher.log }
  var center: Center { dispatcher.center }
  var metrics: Metrics { dispatcher.metrics }

  public init(configuration: ServerConfiguration, environment: [String: String]) throws {
    let log = Log(level: configuration.logLevel)
    let clock: any Clock
    switch configuration.clock {
    case .real: clock = SystemClock()
    case .manual(let start): clock = ManualClock(start ?? SystemClock().now)
    }
    let center = Center(clock: clock, configuration: configuration.center)
    let metrics = Metrics()
    dispatcher = Dispatcher(center: center, configuration: configuration, log: log, metrics: metrics)
    endpoint = Endpoint(
      socketPath: SocketPath.resolve(explicit: configuration.socketPath, environment: environment, uid: getuid()),
      service: ServiceLink(environment: environment, log: Log(level: configuration.logLevel)))
    loop = try EventLoop()
    check = try LoopCheck(loop: loop)
    busyPoll = try BusyPoll(loop: loop, windowNanoseconds: UInt64(configuration.busyPollMicroseconds) * 1000)
    connections = Connections(metrics: metrics)
    let loaded = try Self.loadState(configuration, into: center, log: log)
    let store = loaded?.store
    let order = store.map { _ in OutputGate() }
    outbox = Outbox(
      connections: connections, configuration: configuration, log: log, order: order, dates: dispatcher.dates,
      warningTexts: dispatcher.warningTexts)
    let watchers = EventWatchers(
      loop: loop, configuration: configuration, log: log, metrics: metrics, center: center,
      connections: connections, outbox: outbox)
    let presentations = PresentationTimers(
      loop: loop, center: center, log: log, timeoutMilliseconds: configuration.presentationTimeoutMilliseconds)
    router = EffectRouter(
      center: center, connections: connections, outbox: outbox, watchers: watchers, presentations: presentations)
    runner = Runner(dispatcher: dispatcher, router: router, outbox: outbox)
    trigger = try TriggerTimer(loop: loop, runner: runner, log: log, metrics: metrics)
    if let loaded, let order {
      commits = try Committer(
        store: loaded.store, runs: loaded.runs, loop: loop, center: center, order: order, runner: runner)
    } else {
      commits = nil
    }
    dispatcher.attachments.start(loop: loop, order: commits?.order)
    commits?.start()
  }

  /// `--state`: loads the stored state into the center, fires what was missed while the
  /// daemon was down, and commits that before anything else runs.  Returns the store
  /// (for the writer thread) or nil without `--state`.
  private static func loadState(_ configuration: ServerConfiguration, into center: Center, log: Log) throws
    -> (store: StateStore, runs: EventRuns)?
  {
    guard let directory = configuration.stateDirectory else { return nil }
    let store = try SQLiteStore(
      directory: directory, durability: configuration.durability, reserveBytes: configuration.stateReserveBytes)
    let tightened = store.tightened
    if !tightened.isEmpty {
      // Once: the state was readable by others until now.
      log.warn(
        "state_tightened",
        [
          "dir": directory, "was": tightened.directoryMode.map { String(format: "%04o", $0) } ?? "0700",
          "entries": "\(tightened.entries)", "now": "0700/0600",
        ])
    }
    let persistence = Persistence(store: store)
    center.changes.isEnabled = true
    try persistence.load(into: center)
    log.info(
      "state_loaded",
      [
        "dir": directory, "apps": "\(center.apps.count)",
        "pending": "\(center.apps.values.reduce(0) { $0 + $1.pending.count })",
      ])
    if !center.clock.isManual {
      // Triggers missed while the daemon was down fire once, marked late
      // (proto-docs/README.md, "Durable state").
      let missed = center.fireDue(upTo: center.clock.now, late: true)
      if !missed.isEmpty { log.info("caught_up", ["fired": "\(missed.count)"]) }
      _ = center.takeEffects()
    }
    try persistence.commit(center)
    return (store, persistence.runs)
  }

  /// Binds, serves until SIGTERM/SIGINT, cleans up.  Returns the exit status.
  public func run() -> Int32 {
    do {
      // Signals first: a SIGTERM sent as soon as the socket file appears must stop the
      // daemon cleanly, not kill it with the socket file left behind.
      for signal in [SIGTERM, SIGINT] {
        let watcher = try SignalWatcher(loop: loop)
        try watcher.start(signal: signal) { [unowned self] sig in self.stop(signal: sig) }
        endpoint.signals.append(watcher)
      }
      try listen()
      try check.start { [unowned self] in self.endOfIteration() }
    } catch {
      log.error("startup_failed", ["socket": endpoint.socketPath, "error": "\(error)"])
      commits?.finish()
      try? loop.closeAllHandlesAndClose()
      log.flush()
      return 1
    }
    let mode = center.clock.isManual ? "manual" : "real"
    // systemd: an inherited socket is logged by its own address; READY=1 once it accepts.
    if let inherited = endpoint.service.inheritedPath {
      log.info("listening", ["socket": inherited, "inherited": "true", "clock": mode, "now": center.clock.now.rfc3339])
    } else {
      log.info("listening", ["socket": endpoint.socketPath, "clock": mode, "now": center.clock.now.rfc3339])
    }
    startDesktop()
    notifyReady(listeningOn: endpoint.service.inheritedPath ?? endpoint.socketPath)
    _ = loop.run()
    do {
      // The shutdown watchdog timer does not keep the loop alive and may still be open.
      try loop.closeAllHandlesAndClose()
    } catch {
      log.warn("loop_close", ["error": "\(error)"])
    }
    log.info("stopped")
    log.flush()
    return 0
  }

  private func listen() throws {
    // systemd socket activation: adopt the passed socket instead of binding (Server+Service.swift).
    if try adoptInheritedListener() { return }
    let socketPath = endpoint.socketPath
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
    endpoint.listener = server
    try server.bind(path: socketPath, mode: mode_t(configuration.socketMode))
    try applySocketGroup()  // --socket-group (Server+Service.swift)
    try server.listen(backlog: 511) { [unowned self] server in self.accept(from: server) }
  }

  /// Once per loop iteration, after I/O: what changed goes to the store, every
  /// connection's output is written (or held for its commit), the trigger timer re-armed.
  func endOfIteration() {
    commits?.submit()
    outbox.flushAll()
    trigger.arm()
    // One or two connections sent something: poll on awake for their next requests
    // (BusyPoll).  Not when more did (waiting lets their next requests gather into one
    // iteration's batch), nor while answers wait for the store's writer, which the cores
    // are better left to (its commit wakes the loop anyway).
    let reads = readsThisIteration
    readsThisIteration = 0
    if reads > 0 {
      if reads <= 2 && busyPoll.window > 0 && !(commits?.order.awaitsCommit ?? false) {
        busyPoll.worked()
      } else {
        busyPoll.rest()
      }
    }
  }

  /// Reads handled in this loop iteration (`received`).
  var readsThisIteration = 0

  /// SIGTERM/SIGINT: stop accepting, answer what was read, commit, flush, close, remove
  /// the socket.
  func stop(signal: Int32) {
    guard case .serving = phase else { return }
    phase = .stopping
    log.info("stopping", ["signal": signal == SIGTERM ? "TERM" : "INT"])
    notifyStopping(signal: signal)  // systemd: STOPPING=1, watchdog off
    endpoint.close()
    trigger.close()
    router.desktop?.stop()
    router.watchers.closeAll()
    router.presentations.closeAll()
    stopCopies()  // Server+Attachments.swift
    for client in Array(connections.clients.values) { connections.drain(client) }
    // Commits what is left and waits for the writer: every answer is then durable.
    if let left = commits?.finish(), left.unwrittenBatches > 0 {
      // Never answered: their callers were told nothing was kept, or got no answer.
      log.error(
        "state_not_written",
        ["dir": configuration.stateDirectory ?? "", "error": left.failure.map { "\($0)" } ?? "unknown"])
    }
    outbox.flushAll()
    check.close()
    busyPoll.close()
    // A client that never reads must not hold the daemon up for ever.
    if let deadline = try? LoopTimer(loop: loop) {
      try? deadline.start(afterMilliseconds: 3000) { [unowned self] in
        self.connections.dropAll()
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
