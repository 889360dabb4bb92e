import CLibUV

extension StreamConnection {
  /// Sends `bytes`. The caller's memory may be reused as soon as this returns: whatever
  /// `uv_try_write` could not send right away is copied into a write request. Failures
  /// are reported through `onWriteError`, synchronously if the immediate attempt already
  /// failed (e.g. EPIPE), so that callback must not assume it runs outside `write`.
  /// Writes after `close()` are dropped.
  public func write(_ bytes: UnsafeRawBufferPointer) {
    loop.assertOnLoopThread()
    guard !isClosing, let base = bytes.baseAddress, !bytes.isEmpty else { return }
    var sent = 0
    // Only when nothing is queued: otherwise these bytes would overtake queued ones.
    if queuedWriteBytes == 0 {
      var buffer = uv_buf_t(
        base: UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self)),
        len: bytes.count)
      let result = uv_try_write(stream, &buffer, 1)
      if result != UV_EAGAIN.rawValue {
        do {
          try uvCheck(result, "uv_try_write")
        } catch {
          reportWriteError(error)
          return
        }
        sent = Int(result)
      }
    }
    guard sent < bytes.count else { return }
    let request = WriteRequest(
      connection: self, copying: UnsafeRawBufferPointer(rebasing: bytes[sent...]))
    do {
      try request.submit(to: stream)
      queuedWriteBytes += request.count
    } catch {
      reportWriteError(error)
    }
  }

  /// Sends `bytes`; see `write(_: UnsafeRawBufferPointer)`.
  public func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0) }
  }

  /// Half-closes the connection (`uv_shutdown`) once every queued write has been sent;
  /// `done` gets nil on success. Throws if the shutdown cannot be requested at all.
  public func shutdown(_ done: @escaping (UVError?) -> Void) throws(UVError) {
    loop.assertOnLoopThread()
    guard !isClosing else { throw UVError(code: UV_EINVAL.rawValue, operation: "uv_shutdown") }
    let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
    request.pointee.data = CallbackBox(done).retainedPointer()
    do throws(UVError) {
      try uvCheck(
        uv_shutdown(request, stream) { request, status in
          let box = CallbackBox<UVError?>.takeFromRequest(request!.pointee.data)
          request!.deallocate()
          do throws(UVError) {
            try uvCheck(status, "uv_shutdown")
            box.callback(nil)
          } catch {
            box.callback(error)
          }
        },
        "uv_shutdown")
    } catch {
      // The callback will never run, so undo its retain and free the request here.
      _ = CallbackBox<UVError?>.takeFromRequest(request.pointee.data)
      request.deallocate()
      throw error
    }
  }

  /// Called by `WriteRequest` from the write callback.
  func writeCompleted(byteCount: Int, status: Int32) {
    queuedWriteBytes -= byteCount
    do {
      try uvCheck(status, "uv_write")
    } catch  where error.isCancelled {
      // The connection was closed with writes pending; nobody is listening any more.
      return
    } catch {
      reportWriteError(error)
      return
    }
    if queuedWriteBytes == 0, !isClosing, let onDrain {
      onDrain()
    }
  }

  private func reportWriteError(_ error: UVError) {
    guard let onWriteError else { return }
    onWriteError(error)
  }
}
