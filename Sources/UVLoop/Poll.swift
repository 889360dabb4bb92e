import CLibUV

/// Watches a descriptor that someone else reads and writes (`uv_poll_t`): a library
/// with its own socket, such as sd-bus, tells the loop which events it waits for, and
/// the loop calls back when the descriptor is ready so the library can do its I/O.
///
/// The descriptor stays the library's: closing the poll never closes it.  Close the
/// poll before the descriptor is closed (libuv's rule for `uv_poll_t`).
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
public final class Poll: LoopHandle {
  /// What to wait for; the raw values are libuv's `uv_poll_event` bits.
  public struct Events: OptionSet, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let readable = Events(rawValue: Int32(UV_READABLE.rawValue))
    public static let writable = Events(rawValue: Int32(UV_WRITABLE.rawValue))
  }

  /// The user callback; dropped on close to break retain cycles.
  private var callback: ((Result<Events, UVError>) -> Void)?
  /// The descriptor watched (for logs and tests).
  public let fileDescriptor: Int32

  public init(loop: EventLoop, fileDescriptor: Int32) throws(UVError) {
    loop.assertOnLoopThread()
    let poll = UnsafeMutablePointer<uv_poll_t>.allocate(capacity: 1)
    do {
      try uvCheck(uv_poll_init(loop.raw, poll, fileDescriptor), "uv_poll_init")
    } catch {
      // libuv never saw the handle, so there is no close callback to free it.
      poll.deallocate()
      throw error
    }
    self.fileDescriptor = fileDescriptor
    super.init(loop: loop, handle: poll)
  }

  private var poll: UnsafeMutablePointer<uv_poll_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_poll_t.self)
  }

  /// (Re)starts watching for `events`, replacing the previous set and callback.  The
  /// callback gets the events that are ready, or the error libuv reported (then the
  /// poll is stopped by libuv's rules only if the caller stops it).
  public func start(_ events: Events, _ callback: @escaping (Result<Events, UVError>) -> Void) throws(UVError) {
    loop.assertOnLoopThread()
    guard !isClosing else { throw UVError(code: UV_EINVAL.rawValue, operation: "uv_poll_start") }
    self.callback = callback
    try uvCheck(
      uv_poll_start(
        poll, events.rawValue,
        { poll, status, events in
          let this = Poll.from(poll)
          // Copy first: the callback may stop or close this poll, which drops the stored closure.
          guard let callback = this.callback else { return }
          if status < 0 {
            callback(.failure(UVError(code: status, operation: "uv_poll")))
          } else {
            callback(.success(Events(rawValue: events)))
          }
        }),
      "uv_poll_start")
  }

  /// Stops watching; it can be started again.
  public func stop() {
    loop.assertOnLoopThread()
    guard !isClosing else { return }
    uvCheckInfallible(uv_poll_stop(poll), "uv_poll_stop")
  }

  override func handleWillClose() {
    callback = nil
  }
}
