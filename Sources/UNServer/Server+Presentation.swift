import UNModel
import UVLoop

extension Server {
  /// Starts the real-time limit of a presentation waiting for `completePresentation`
  /// (once per presentation, however many connections were asked).  Real time, not the
  /// center's clock: on iOS the system stops waiting for a delegate that never calls its
  /// completion handler, and a manual clock that nobody advances must not hold a
  /// notification for ever.
  func startPresentationTimer(_ id: String) {
    guard !stopping, presentationTimers[id] == nil else { return }
    do {
      let timer = try LoopTimer(loop: loop)
      presentationTimers[id] = timer
      loop.updateTime()
      try timer.start(afterMilliseconds: configuration.presentationTimeoutMilliseconds) { [unowned self] in
        self.presentationTimers.removeValue(forKey: id)?.close()
        self.center.expirePresentation(id)
        self.routeEffects()
      }
    } catch {
      log.error("timer_failed", ["error": "\(error)", "presentationId": id])
    }
  }
}
