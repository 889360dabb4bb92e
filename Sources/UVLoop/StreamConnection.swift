import CLibUV

/// One connected Unix domain stream socket (`uv_pipe_t`): accepted by a `PipeServer` or
/// made with `connect(loop:path:_:)`.
///
/// Reading delivers bytes from the loop's shared buffer; writing first tries to send
/// immediately and queues only the remainder, counting it in `queuedWriteBytes` so the
/// owner can apply backpressure (stop reading from a client that does not read).
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
public final class StreamConnection: LoopHandle {
  /// Read callbacks; kept across `stopReading()` so `resumeReading()` can reuse them.
  var onData: ((UnsafeRawBufferPointer) -> Void)?
  var onEnd: ((UVError?) -> Void)?
  /// Whether `uv_read_start` is in effect (libuv has no per-stream query for it).
  var readingStarted = false
  /// Bytes accepted by `write` but not yet confirmed written by libuv (our own counter,
  /// unlike `uv_stream_get_write_queue_size`, it includes requests awaiting callbacks).
  public internal(set) var queuedWriteBytes = 0
  /// Called when a queued write fails (not for writes cancelled by `close()`).
  public var onWriteError: ((UVError) -> Void)?
  /// Called when `queuedWriteBytes` returns to 0 after having been positive.
  public var onDrain: (() -> Void)?

  /// Creates an unconnected pipe handle, to be accepted into or connected.
  init(loop: EventLoop) throws(UVError) {
    loop.assertOnLoopThread()
    let pipe = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
    do {
      try uvCheck(uv_pipe_init(loop.raw, pipe, 0), "uv_pipe_init")
    } catch {
      // libuv never saw the handle, so there is no close callback to free it.
      pipe.deallocate()
      throw error
    }
    super.init(loop: loop, handle: pipe)
  }

  var pipe: UnsafeMutablePointer<uv_pipe_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_pipe_t.self)
  }

  var stream: UnsafeMutablePointer<uv_stream_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self)
  }

  /// Connects to a listening socket at `path` (client side; used by tests and tools).
  /// `done` runs on the loop thread, from a later iteration, except for an invalid path
  /// (too long), which fails immediately. On failure the half-made handle is closed.
  public static func connect(
    loop: EventLoop, path: String,
    _ done: @escaping (Result<StreamConnection, UVError>) -> Void
  ) {
    let connection: StreamConnection
    do {
      try PipeServer.checkPathLength(path, "uv_pipe_connect")
      connection = try StreamConnection(loop: loop)
    } catch {
      done(.failure(error))
      return
    }
    let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
    request.pointee.data = CallbackBox(done).retainedPointer()
    // Errors (e.g. ENOENT) are delivered asynchronously through the callback.
    uv_pipe_connect(request, connection.pipe, path) { request, status in
      let box = CallbackBox<Result<StreamConnection, UVError>>
        .takeFromRequest(request!.pointee.data)
      let connection = StreamConnection.from(request!.pointee.handle)
      request!.deallocate()
      do throws(UVError) {
        try uvCheck(status, "uv_pipe_connect")
        box.callback(.success(connection))
      } catch {
        connection.close()
        box.callback(.failure(error))
      }
    }
  }

  /// The socket's file descriptor, or nil once closing.
  public var fileDescriptor: Int32? { handleFileDescriptor }

  /// The kernel-recorded identity of the peer process, or nil if unavailable.
  public func peerCredentials() -> PeerCredentials? {
    guard let fd = fileDescriptor else { return nil }
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
    do {
      try uvCheck(uncenter_peercred(fd, &pid, &uid, &gid), "getsockopt(SO_PEERCRED)")
    } catch {
      return nil
    }
    return PeerCredentials(pid: pid, uid: uid, gid: gid)
  }

  /// Closing stops reading and drops every user closure, breaking retain cycles.
  override func handleWillClose() {
    readingStarted = false
    onData = nil
    onEnd = nil
    onWriteError = nil
    onDrain = nil
  }
}
