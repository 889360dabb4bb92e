import CLibUV
import Glibc

/// A libuv event loop owned by this object (never the process-wide default loop), so
/// several loops can coexist, e.g. one per test.
///
/// Thread confinement: an `EventLoop` and every handle created on it are used only on
/// the thread that created the loop and runs it. None of these types are `Sendable`;
/// `assertOnLoopThread()` checks the rule in debug builds. Never call `run()` from a
/// Swift `Task`: `uv_run` blocks its thread and would starve the cooperative pool.
public final class EventLoop {
  /// The loop memory; allocated and freed by this object only.
  let raw: UnsafeMutablePointer<uv_loop_t>
  /// One read buffer shared by all streams of this loop. Safe because libuv calls the
  /// alloc callback and then the read callback synchronously on the loop thread, and the
  /// read callback consumes the bytes before returning.
  let readBuffer: UnsafeMutableRawBufferPointer
  /// The thread that owns the loop; compared in `assertOnLoopThread()`.
  private let ownerThread: pthread_t
  /// Set once `uv_loop_close` succeeded; the loop memory is gone after that.
  public private(set) var isClosed = false
  /// Guards against re-entering `uv_run` from a callback, which libuv does not support.
  private var isRunning = false

  /// Size of the shared read buffer: large enough that a busy client is drained in a few
  /// reads per iteration, small enough to stay in cache.
  public static let readBufferSize = 64 * 1024

  public init() throws(UVError) {
    let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
    do {
      try uvCheck(uv_loop_init(loop), "uv_loop_init")
    } catch {
      // Nothing was registered with libuv, so the memory can be returned right away.
      loop.deallocate()
      throw error
    }
    raw = loop
    readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    ownerThread = pthread_self()
    // libuv writes to sockets with plain write(2)/writev(2) (no MSG_NOSIGNAL), so writing
    // to a peer that went away would raise SIGPIPE and kill the process; ignoring it turns
    // that into an EPIPE write error reported through `onWriteError`.
    signal(SIGPIPE, SIG_IGN)
  }

  deinit {
    // Handles retain their loop until their close callback ran, so reaching deinit means
    // no wrapper handle is open; closing can still fail only for foreign handles, in
    // which case the loop memory is leaked rather than freed under libuv's feet.
    if !isClosed {
      let result = uv_loop_close(raw)
      if result == 0 { raw.deallocate() }
    }
    readBuffer.deallocate()
  }

  /// Debug-build check that the caller is on the loop's thread; free in release builds.
  public func assertOnLoopThread(file: StaticString = #fileID, line: UInt = #line) {
    assert(
      pthread_equal(pthread_self(), ownerThread) != 0,
      "EventLoop used off its thread", file: file, line: line)
  }

  /// Runs until there are no active, referenced handles or `stop()` was called.
  /// Returns true if handles are still active (i.e. it returned because of `stop()`).
  @discardableResult
  public func run() -> Bool { runLoop(UV_RUN_DEFAULT) }

  private func runLoop(_ mode: uv_run_mode) -> Bool {
    assertOnLoopThread()
    precondition(!isClosed, "EventLoop.run after close")
    precondition(!isRunning, "EventLoop.run called re-entrantly from a callback")
    isRunning = true
    defer { isRunning = false }
    // uv_run's result is a count of remaining active handles, not a status code.
    return uv_run(raw, mode) != 0
  }

  /// Makes `run()` return after the current iteration (safe to call from callbacks).
  public func stop() {
    assertOnLoopThread()
    uv_stop(raw)
  }

  /// The loop's cached millisecond clock, updated at the start of each iteration.
  public var now: UInt64 { uv_now(raw) }

  /// Refreshes the cached clock, e.g. after a long synchronous computation in a callback.
  public func updateTime() { uv_update_time(raw) }

  /// A monotonic high-resolution clock in nanoseconds, for measuring intervals.
  public var hrtimeNanoseconds: UInt64 { uv_hrtime() }

  /// Whether the loop has active, referenced handles or requests.
  public var isAlive: Bool { uv_loop_alive(raw) != 0 }

  /// Releases the loop. Fails with `EBUSY` while any handle is open or still closing,
  /// so callers close handles (see `closeAllHandles()`), run the loop to deliver the
  /// close callbacks, then call this.
  public func close() throws(UVError) {
    assertOnLoopThread()
    guard !isClosed else { return }
    precondition(!isRunning, "EventLoop.close called from inside run()")
    try uvCheck(uv_loop_close(raw), "uv_loop_close")
    isClosed = true
    raw.deallocate()
  }
}

/// Loops are thread-confined; this makes accidental cross-thread use a compile error.
@available(*, unavailable)
extension EventLoop: Sendable {}
