import CLibUV

/// One queued `uv_write`: owns the request memory and a private copy of the bytes that
/// `uv_try_write` could not send immediately, because libuv only keeps a pointer to the
/// buffer and the caller's memory may be gone before the write completes.
///
/// Lifetime: `submit()` retains the object into `req.data`; the write callback takes that
/// reference back, so request and bytes are freed right after the callback (libuv always
/// calls it, with `UV_ECANCELED` if the stream was closed first).
/// Confined to the loop's thread like everything in UVLoop.
final class WriteRequest {
  private let request: UnsafeMutablePointer<uv_write_t>
  private let bytes: UnsafeMutableRawBufferPointer
  private let connection: StreamConnection

  var count: Int { bytes.count }

  init(connection: StreamConnection, copying source: UnsafeRawBufferPointer) {
    precondition(!source.isEmpty, "empty writes are filtered out by StreamConnection.write")
    self.connection = connection
    request = .allocate(capacity: 1)
    bytes = .allocate(byteCount: source.count, alignment: 1)
    bytes.copyMemory(from: source)
  }

  deinit {
    request.deallocate()
    bytes.deallocate()
  }

  /// Hands the bytes to libuv. On synchronous failure nothing stays retained.
  func submit(to stream: UnsafeMutablePointer<uv_stream_t>) throws(UVError) {
    let data = Unmanaged.passRetained(self)
    request.pointee.data = data.toOpaque()
    // libuv copies the uv_buf_t array itself, so a stack value is enough here.
    var buffer = uv_buf_t(
      base: bytes.baseAddress!.assumingMemoryBound(to: CChar.self), len: bytes.count)
    do {
      try uvCheck(
        uv_write(request, stream, &buffer, 1) { request, status in
          let this = Unmanaged<WriteRequest>.fromOpaque(request!.pointee.data!)
            .takeRetainedValue()
          this.connection.writeCompleted(byteCount: this.count, status: status)
        },
        "uv_write")
    } catch {
      data.release()
      throw error
    }
  }
}
