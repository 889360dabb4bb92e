import CLibUV

extension StreamConnection {
  /// Starts delivering incoming bytes. `onData`'s buffer is the loop's shared read buffer
  /// and is valid only during the call. `onEnd(nil)` reports end of stream, `onEnd(error)`
  /// a read error; reading has stopped in both cases. Either callback may close the
  /// connection.
  public func startReading(
    onData: @escaping (UnsafeRawBufferPointer) -> Void,
    onEnd: @escaping (UVError?) -> Void
  ) throws(UVError) {
    loop.assertOnLoopThread()
    self.onData = onData
    self.onEnd = onEnd
    try resumeReading()
  }

  /// Restarts reading with the callbacks from the last `startReading` (after
  /// `stopReading()`, e.g. when write backpressure has eased).
  public func resumeReading() throws(UVError) {
    loop.assertOnLoopThread()
    guard !isClosing, onData != nil else {
      throw UVError(code: UV_EINVAL.rawValue, operation: "uv_read_start")
    }
    try uvCheck(
      uv_read_start(
        stream,
        { handle, _, buffer in
          // All reads on a loop share one buffer: the read callback consumes it
          // synchronously, before libuv asks for a buffer again.
          let shared = StreamConnection.from(handle).loop.readBuffer
          buffer!.pointee = uv_buf_t(
            base: shared.baseAddress!.assumingMemoryBound(to: CChar.self), len: shared.count)
        },
        { stream, count, buffer in
          StreamConnection.from(stream).didRead(count: count, buffer: buffer!.pointee)
        }),
      "uv_read_start")
    readingStarted = true
  }

  /// Stops delivering bytes (the kernel buffers, then the peer blocks); callbacks are kept.
  public func stopReading() {
    loop.assertOnLoopThread()
    guard !isClosing else { return }
    uvCheckInfallible(uv_read_stop(stream), "uv_read_stop")
    readingStarted = false
  }

  /// Whether `onData` is currently being called for incoming bytes.
  public var isReading: Bool { readingStarted }

  private func didRead(count: Int, buffer: uv_buf_t) {
    if count > 0 {
      // Copy first: the callback may close the connection, which drops the stored closure.
      guard let onData else { return }
      onData(UnsafeRawBufferPointer(start: buffer.base, count: count))
      return
    }
    // Zero means "nothing this time" (EAGAIN); libuv may still call us with it.
    guard count < 0 else { return }
    // libuv has stopped reading; keep nothing that could retain the owner.
    readingStarted = false
    let onEnd = self.onEnd
    self.onData = nil
    self.onEnd = nil
    do {
      try uvCheck(Int32(truncatingIfNeeded: count), "uv_read")
    } catch  where error.isEndOfFile {
      onEnd?(nil)
    } catch {
      onEnd?(error)
    }
  }
}
