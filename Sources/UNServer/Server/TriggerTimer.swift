import UNModel
import UVLoop

/// The one timer for the earliest pending trigger date (real clock only; the manual
/// clock moves by `advanceClock`).  Re-armed at the end of every iteration; when it
/// fires, the due requests fire through the `Runner`, which routes what that caused.
///
/// Loop-confined, owned by `Server`.
final class TriggerTimer {
  let loop: EventLoop
  let runner: Runner
  let log: Log
  let metrics: Metrics
  private let timer: LoopTimer
  /// The trigger date the timer is armed for (real clock).
  private var armedDeadline: Instant?
  private var closed = false

  var center: Center { runner.center }

  init(loop: EventLoop, runner: Runner, log: Log, metrics: Metrics) throws {
    self.loop = loop
    self.runner = runner
    self.log = log
    self.metrics = metrics
    timer = try LoopTimer(loop: loop)
  }

  /// Arms the timer for the earliest pending date, unless it already is.
  func arm() {
    guard !closed, !center.clock.isManual else { return }
    let deadline = center.nextDeadline
    guard deadline != armedDeadline else { return }
    armedDeadline = deadline
    guard let deadline else {
      timer.stop()
      return
    }
    let delay = max(0, deadline.milliseconds - center.clock.now.milliseconds)
    loop.updateTime()
    do {
      try timer.start(afterMilliseconds: UInt64(delay)) { [unowned self] in self.fired() }
    } catch {
      log.error("timer_failed", ["error": "\(error)"])
    }
  }

  private func fired() {
    armedDeadline = nil
    let now = center.clock.now
    runner.run {
      for firing in center.fireDue(upTo: now) {
        metrics.recordLateness(milliseconds: now.milliseconds - firing.date.milliseconds)
        log.debug("fired", ["app": firing.app, "id": firing.identifier, "date": firing.date.rfc3339])
      }
    }
  }

  func close() {
    closed = true
    timer.close()
  }
}
