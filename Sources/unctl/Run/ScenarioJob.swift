import Foundation
import Synchronization
import UNCenterClient

/// One scenario file, run on a thread of its own with a deadline.  Its private daemon is
/// a separate process, so a daemon that crashes or wedges only breaks this scenario's
/// connections: the scenario fails (with the daemon's exit and log tail), the others go
/// on.  At the deadline the daemon is killed, which ends every wait of the scenario
/// thread on its sockets; a thread still stuck after that is abandoned.
struct ScenarioJob: Sendable {
  var file: String
  /// A running daemon to use instead of a private one (`--socket`).
  var socket: String?
  var recording: Bool
  var timeout: Double

  /// What the scenario thread and the job share: the daemon to kill, the finished record.
  private final class Shared: Sendable {
    struct State {
      var pid: pid_t?
      var killed = false
      var record: ScenarioRecord?
    }
    let state = Mutex(State())
    let done = DispatchSemaphore(value: 0)
  }

  /// Runs the scenario to its end or its deadline (the calling thread waits).
  func run() -> ScenarioRecord {
    let started = Date()
    let shared = Shared()
    let job = self
    let thread = Thread {
      let record = job.execute(shared)
      shared.state.withLock { $0.record = record }
      shared.done.signal()
    }
    thread.start()
    var record: ScenarioRecord
    if shared.done.wait(timeout: .now() + timeout) == .success {
      record = shared.state.withLock { $0.record! }
    } else {
      // The pid is published only until the scenario thread reaps the daemon, so it
      // cannot name a reused process.
      shared.state.withLock { state in
        if let pid = state.pid { kill(pid, SIGKILL) }
        state.killed = true
      }
      let finished = shared.done.wait(timeout: .now() + 5) == .success
      record = finished ? shared.state.withLock { $0.record! } : ScenarioRecord(file: file, name: file, clock: "")
      let why =
        "timed out after \(Self.seconds(timeout)) s (--timeout); its daemon was killed"
        + (finished ? "" : " and the scenario thread abandoned")
      record.timedOut = true
      record.failures.insert(why, at: 0)
      record.output += "  FAIL  \(why)\n"
    }
    record.seconds = Date().timeIntervalSince(started)
    record.output = "scenario \(file): \(record.name)\n" + record.output
    return record
  }

  static func seconds(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }

  /// The scenario thread's part: load, start the daemon, connect, run the steps.
  private func execute(_ shared: Shared) -> ScenarioRecord {
    let scenario: Scenario
    do {
      scenario = try RunCommand.load(file)
    } catch {
      var record = ScenarioRecord(file: file, name: file, clock: "")
      record.failures = ["\(error)"]
      record.output = "  FAIL  \(error)\n"
      return record
    }
    let runner = ScenarioRunner(scenario, file: file, recording: recording)
    var daemon: Daemon?
    do {
      if socket == nil {
        let started = try Daemon(clock: scenario.clock)
        daemon = started
        let killed = shared.state.withLock { state in
          state.pid = started.pid
          return state.killed
        }
        if killed { kill(started.pid, SIGKILL) }
      }
      try runner.connect(socket: socket ?? daemon!.socketPath)
      runner.run()
    } catch {
      if error is ConnectionError { runner.connectionBroke = true }
      runner.record.failures.append("\(error)")
      runner.emit("  FAIL  \(error)")
    }
    if let daemon {
      // Withdrawn before anything here reaps the daemon, so the deadline's kill can
      // never reach a reused pid.
      let killed = shared.state.withLock { state in
        state.pid = nil
        return state.killed
      }
      if !runner.record.passed, !killed, runner.connectionBroke, daemon.hasEnded(within: 2) {
        let why = "uncenterd \(daemon.exitDescription)" + daemon.logTail()
        runner.record.failures.append(why)
        runner.emit("  FAIL  " + why)
      }
      daemon.stop()
    }
    return runner.record
  }
}
