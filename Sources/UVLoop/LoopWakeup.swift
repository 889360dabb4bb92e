import CLibUV
import Synchronization

/// Wakes the loop from another thread (`uv_async_t`): a worker hands its result over
/// through its own synchronized state, then calls `waker.wake()`, and the loop runs
/// `callback` on its own thread.  libuv coalesces wakes: several `wake()` calls before
/// the loop gets to them run the callback once, so the callback must look at all the
/// work that is ready, not at one item.
///
/// Ownership follows `LoopHandle`: the memory lives until the close callback.  The one
/// part used off the loop thread is `waker`, which only ever calls `uv_async_send` (the
/// one libuv function documented as thread-safe), under a lock that `close()` also
/// takes to disarm it; so a wake racing with close either lands before the handle is
/// closing or does nothing, and never touches freed memory.
///
/// Thread confinement: the handle is used only on the loop's thread; `waker` is `Sendable`.
public final class LoopWakeup: LoopHandle {
  /// Called on the loop thread after one or more wakes; dropped on close.
  private var callback: (() -> Void)?
  /// The thread-safe half, handed to worker threads.
  public let waker: Waker

  public init(loop: EventLoop, _ callback: @escaping () -> Void) throws(UVError) {
    loop.assertOnLoopThread()
    let async = UnsafeMutablePointer<uv_async_t>.allocate(capacity: 1)
    do {
      try uvCheck(
        uv_async_init(loop.raw, async) { async in
          let this = LoopWakeup.from(async)
          // Copy first: the callback may close this handle, which drops the stored closure.
          guard let callback = this.callback else { return }
          callback()
        }, "uv_async_init")
    } catch {
      // libuv never saw the handle, so there is no close callback to free it.
      async.deallocate()
      throw error
    }
    waker = Waker(UInt(bitPattern: async))
    self.callback = callback
    super.init(loop: loop, handle: async)
  }

  override func handleWillClose() {
    // Disarmed before uv_close: no wake can reach the handle from now on.
    waker.disarm()
    callback = nil
  }

  /// Wakes the loop; callable from any thread, any number of times, also after close
  /// (then it does nothing).
  public final class Waker: Sendable {
    /// The handle's address, 0 once the handle is closing.  Held while sending, so
    /// `disarm()` waits for a send in progress.
    private let address: Mutex<UInt>

    init(_ address: UInt) { self.address = Mutex(address) }

    public func wake() {
      address.withLock { address in
        guard let async = UnsafeMutablePointer<uv_async_t>(bitPattern: address) else { return }
        // Fails only with EINVAL on a handle that is not an async handle.
        _ = uv_async_send(async)
      }
    }

    func disarm() { address.withLock { $0 = 0 } }
  }
}
