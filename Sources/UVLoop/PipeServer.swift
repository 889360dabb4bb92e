import CLibUV
import Glibc

/// A listening Unix domain socket (`uv_pipe_t` in listen mode).
///
/// Closing a server that was bound with `bind(path:mode:)` removes the socket file
/// (libuv unlinks the path it bound); a socket adopted with `open(fd:)` is left alone.
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
public final class PipeServer: LoopHandle {
  /// Called once per pending connection; it must call `accept()` (libuv stops polling
  /// the socket until the pending connection is taken). Dropped on close.
  private var onConnection: ((PipeServer) -> Void)?
  /// Called when accepting fails at the socket level (e.g. EMFILE). Dropped on close.
  public var onAcceptError: ((UVError) -> Void)?

  public init(loop: EventLoop) throws(UVError) {
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

  private var pipe: UnsafeMutablePointer<uv_pipe_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_pipe_t.self)
  }

  private var stream: UnsafeMutablePointer<uv_stream_t> {
    UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_stream_t.self)
  }

  /// Longest socket path `sockaddr_un` can hold (including the terminating NUL).
  static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

  /// libuv 1.44 silently truncates long paths, which would bind or connect to the wrong
  /// file; refuse them instead.
  static func checkPathLength(_ path: String, _ what: String) throws(UVError) {
    if path.utf8.count >= maxPathBytes {
      try uvCheck(UV_ENAMETOOLONG.rawValue, what)
    }
  }

  /// Creates the socket file at `path` with exactly `mode` (e.g. 0o600). The process
  /// umask is tightened around the bind so the file never exists with wider permissions,
  /// then restored; because umask is process-wide, bind during single-threaded startup.
  public func bind(path: String, mode: mode_t) throws(UVError) {
    loop.assertOnLoopThread()
    try Self.checkPathLength(path, "uv_pipe_bind")
    let previousMask = umask(~mode & 0o777)
    let result = uv_pipe_bind(pipe, path)
    umask(previousMask)
    try uvCheck(result, "uv_pipe_bind")
    // The umask can only remove bits; chmod makes the mode exact either way.
    if chmod(path, mode) != 0 {
      try uvCheck(-errno, "chmod")
    }
  }

  /// Adopts an inherited socket that is already bound and listening (systemd socket
  /// activation passes it as fd 3 and up).
  public func open(fd: Int32) throws(UVError) {
    loop.assertOnLoopThread()
    try uvCheck(uv_pipe_open(pipe, fd), "uv_pipe_open")
  }

  /// Starts accepting; `onConnection` runs for each pending connection and must call
  /// `accept()`.
  public func listen(backlog: Int32, onConnection: @escaping (PipeServer) -> Void) throws(UVError) {
    loop.assertOnLoopThread()
    guard !isClosing else { throw UVError(code: UV_EINVAL.rawValue, operation: "uv_listen") }
    self.onConnection = onConnection
    try uvCheck(
      uv_listen(stream, backlog) { server, status in
        let this = PipeServer.from(server)
        do throws(UVError) {
          try uvCheck(status, "uv_listen")
        } catch {
          if let onAcceptError = this.onAcceptError { onAcceptError(error) }
          return
        }
        // Copy first: the callback may close the server, which drops the stored closure.
        guard let onConnection = this.onConnection else { return }
        onConnection(this)
      },
      "uv_listen")
  }

  /// Takes the pending connection; call from the `onConnection` callback.
  public func accept() throws(UVError) -> StreamConnection {
    loop.assertOnLoopThread()
    guard !isClosing else { throw UVError(code: UV_EINVAL.rawValue, operation: "uv_accept") }
    let connection = try StreamConnection(loop: loop)
    do {
      try uvCheck(uv_accept(stream, connection.stream), "uv_accept")
    } catch {
      connection.close()
      throw error
    }
    return connection
  }

  /// The socket file descriptor, or nil once closing.
  public var fileDescriptor: Int32? { handleFileDescriptor }

  override func handleWillClose() {
    onConnection = nil
    onAcceptError = nil
  }
}
