import CLibUV

/// Runs a callback once per loop iteration, right after polling for I/O (`uv_check_t`).
///
/// The server uses it like Redis's `beforeSleep`: everything the I/O callbacks of one
/// iteration produced (responses, state changes) is flushed and committed once, in a
/// batch, instead of once per request.
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
public final class LoopCheck: LoopHandle {
  /// The user callback; dropped on close to break retain cycles.
  private var callback: (() -> Void)?

  public init(loop: EventLoop) throws(UVError) {
    loop.assertOnLoopThread()
    let check = UnsafeMutablePointer<uv_check_t>.allocate(capacity: 1)
    do {
      try uvCheck(uv_check_init(loop.raw, check), "uv_check_init")
    } catch {
      // libuv never saw the handle, so there is no close callback to free it.
      check.deallocate()
      throw error
    }
    super.init(loop: loop, handle: check)
  }

  private var check: UnsafeMutablePointer<uv_check_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_check_t.self)
  }

  /// Starts calling `callback` every iteration; replaces any previous callback.
  /// An active check keeps `run()` going (unless unreferenced) but never makes the loop
  /// spin: the loop still blocks in poll until I/O or a timer is due.
  public func start(_ callback: @escaping () -> Void) throws(UVError) {
    loop.assertOnLoopThread()
    guard !isClosing else { throw UVError(code: UV_EINVAL.rawValue, operation: "uv_check_start") }
    self.callback = callback
    try uvCheck(
      uv_check_start(
        check,
        { check in
          let this = LoopCheck.from(check)
          // Copy first: the callback may close this handle, which drops the stored closure.
          guard let callback = this.callback else { return }
          callback()
        }),
      "uv_check_start")
  }

  /// Stops the per-iteration callback; it can be started again.
  public func stop() {
    loop.assertOnLoopThread()
    guard !isClosing else { return }
    uvCheckInfallible(uv_check_stop(check), "uv_check_stop")
  }

  override func handleWillClose() {
    callback = nil
  }
}
