import CLibUV

/// Keeps the loop polling without sleeping for a short while after it had work
/// (`uv_idle_t`: while an idle handle is active, libuv polls with a zero timeout).
///
/// A client that sends its next request as soon as it has read an answer (one call at a
/// time, as most clients of a notification center do) otherwise finds the loop asleep in
/// `epoll_wait` every time, and each request pays for waking the thread, which on a
/// virtual machine is most of the round trip (see BENCHMARKS.md).  Polling on for
/// `window` nanoseconds after the last work catches the next request awake, at the cost
/// of at most that much CPU time per burst of work.
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
public final class BusyPoll: LoopHandle {
  /// How long the loop keeps polling after the last work, in nanoseconds.
  public let window: UInt64
  private var until: UInt64 = 0
  private var active = false

  public init(loop: EventLoop, windowNanoseconds: UInt64) throws(UVError) {
    loop.assertOnLoopThread()
    let idle = UnsafeMutablePointer<uv_idle_t>.allocate(capacity: 1)
    do {
      try uvCheck(uv_idle_init(loop.raw, idle), "uv_idle_init")
    } catch {
      // libuv never saw the handle, so there is no close callback to free it.
      idle.deallocate()
      throw error
    }
    window = windowNanoseconds
    super.init(loop: loop, handle: idle)
    // An active idle handle must not keep `run()` going by itself.
    uv_unref(handle)
  }

  private var idle: UnsafeMutablePointer<uv_idle_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_idle_t.self)
  }

  /// The loop had work: it polls without sleeping for `window` from now.
  public func worked() {
    guard !isClosing else { return }
    until = uv_hrtime() &+ window
    guard !active else { return }
    active = true
    uvCheckInfallible(
      uv_idle_start(idle) { idle in
        let this = BusyPoll.from(idle)
        if uv_hrtime() >= this.until { this.rest() }
      }, "uv_idle_start")
  }

  /// Back to sleeping in poll until I/O or a timer is due.
  public func rest() {
    guard active, !isClosing else { return }
    active = false
    uvCheckInfallible(uv_idle_stop(idle), "uv_idle_stop")
  }
}
