import UNModel
import UVLoop

/// The real-time limits of presentations waiting for an app's `completePresentation`
/// (once per presentation, however many connections were asked).  Real time, not the
/// center's clock: on iOS the system stops waiting for a delegate that never calls its
/// completion handler, and a manual clock that nobody advances must not hold a
/// notification for ever.
///
/// Loop-confined, owned by `EffectRouter`.
final class PresentationTimers {
  let loop: EventLoop
  let center: Center
  let log: Log
  let timeoutMilliseconds: UInt64
  private var timers: [String: LoopTimer] = [:]
  private var closed = false
  /// Runs the expiries (weak: it holds the router, which holds these timers).
  weak var runner: Runner?

  init(loop: EventLoop, center: Center, log: Log, timeoutMilliseconds: UInt64) {
    self.loop = loop
    self.center = center
    self.log = log
    self.timeoutMilliseconds = timeoutMilliseconds
  }

  func start(_ id: String) {
    guard !closed, timers[id] == nil else { return }
    do {
      let timer = try LoopTimer(loop: loop)
      timers[id] = timer
      loop.updateTime()
      try timer.start(afterMilliseconds: timeoutMilliseconds) { [unowned self] in
        self.timers.removeValue(forKey: id)?.close()
        self.runner?.run { self.center.expirePresentation(id) }
      }
    } catch {
      log.error("timer_failed", ["error": "\(error)", "presentationId": id])
    }
  }

  /// Shutdown: no presentation expires any more.
  func closeAll() {
    closed = true
    for timer in timers.values { timer.close() }
    timers.removeAll()
  }
}
