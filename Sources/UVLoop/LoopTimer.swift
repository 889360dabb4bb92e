import CLibUV

/// A one-shot or repeating timer on the loop's millisecond clock (`uv_timer_t`).
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
public final class LoopTimer: LoopHandle {
  /// The user callback; dropped on close to break retain cycles.
  private var callback: (() -> Void)?

  public init(loop: EventLoop) throws(UVError) {
    loop.assertOnLoopThread()
    let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
    do {
      try uvCheck(uv_timer_init(loop.raw, timer), "uv_timer_init")
    } catch {
      // libuv never saw the handle, so there is no close callback to free it.
      timer.deallocate()
      throw error
    }
    super.init(loop: loop, handle: timer)
  }

  private var timer: UnsafeMutablePointer<uv_timer_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_timer_t.self)
  }

  /// (Re)starts the timer: fires after `afterMilliseconds`, then every
  /// `repeatMilliseconds` if that is non-zero. Replaces any previous callback.
  /// The delay counts from the loop's cached `now`; after blocking work outside the
  /// loop, call `EventLoop.updateTime()` first so the timer does not fire early.
  public func start(
    afterMilliseconds: UInt64, repeatMilliseconds: UInt64 = 0,
    _ callback: @escaping () -> Void
  ) throws(UVError) {
    loop.assertOnLoopThread()
    guard !isClosing else { throw UVError(code: UV_EINVAL.rawValue, operation: "uv_timer_start") }
    self.callback = callback
    try uvCheck(
      uv_timer_start(
        timer,
        { timer in
          let this = LoopTimer.from(timer)
          // Copy first: the callback may stop or close this timer, which drops the stored closure.
          guard let callback = this.callback else { return }
          callback()
        }, afterMilliseconds, repeatMilliseconds),
      "uv_timer_start")
  }

  /// Stops the timer; it can be started again later.
  public func stop() {
    loop.assertOnLoopThread()
    guard !isClosing else { return }
    uvCheckInfallible(uv_timer_stop(timer), "uv_timer_stop")
  }

  override func handleWillClose() {
    callback = nil
  }
}
