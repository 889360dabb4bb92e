import CLibUV

/// Delivers a POSIX signal as a loop callback (`uv_signal_t`), so handlers run as
/// ordinary loop code instead of in async-signal context.
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
public final class SignalWatcher: LoopHandle {
  /// The user callback; dropped on close to break retain cycles.
  private var callback: ((Int32) -> Void)?

  public init(loop: EventLoop) throws(UVError) {
    loop.assertOnLoopThread()
    let signal = UnsafeMutablePointer<uv_signal_t>.allocate(capacity: 1)
    do {
      try uvCheck(uv_signal_init(loop.raw, signal), "uv_signal_init")
    } catch {
      // libuv never registered the handle, so there is no close callback to free it.
      signal.deallocate()
      throw error
    }
    super.init(loop: loop, handle: signal)
  }

  private var signalHandle: UnsafeMutablePointer<uv_signal_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_signal_t.self)
  }

  /// Starts watching `signal` (e.g. `SIGTERM`); replaces any previous signal and callback.
  public func start(signal: Int32, _ callback: @escaping (Int32) -> Void) throws(UVError) {
    loop.assertOnLoopThread()
    guard !isClosing else { throw UVError(code: UV_EINVAL.rawValue, operation: "uv_signal_start") }
    self.callback = callback
    try uvCheck(
      uv_signal_start(
        signalHandle,
        { handle, signum in
          let this = SignalWatcher.from(handle)
          // Copy first: the callback may close this watcher, which drops the stored closure.
          guard let callback = this.callback else { return }
          callback(signum)
        }, signal),
      "uv_signal_start")
  }

  /// Stops watching; the signal's previous disposition is restored by libuv.
  public func stop() {
    loop.assertOnLoopThread()
    guard !isClosing else { return }
    uvCheckInfallible(uv_signal_stop(signalHandle), "uv_signal_stop")
  }

  override func handleWillClose() {
    callback = nil
  }
}
