import CLibUV

extension EventLoop {
  /// Requests closing of every handle on the loop that is not already closing, for
  /// shutdown and for tests (libuv's MAKE_VALGRIND_HAPPY). Handles owned by wrappers are
  /// closed through `LoopHandle.close()` so their memory is released by the wrapper's
  /// close callback. Run the loop afterwards to deliver the close callbacks, then call
  /// `close()`.
  public func closeAllHandles() {
    assertOnLoopThread()
    guard !isClosed else { return }
    // uv_close does not unlink a handle from the loop's queue until its close callback,
    // so closing while walking is safe (libuv's own test helper does the same).
    uv_walk(
      raw,
      { handle, _ in
        guard let handle, uv_is_closing(handle) == 0 else { return }
        if handle.pointee.data != nil {
          LoopHandle.from(handle).close()
        } else {
          // Not created by UVLoop (nothing can own memory we would need to release).
          uv_close(handle, nil)
        }
      }, nil)
  }

  /// Closes every handle, runs the loop until their close callbacks ran, then closes the
  /// loop itself. Fails with `EBUSY` if a callback opened new handles meanwhile.
  public func closeAllHandlesAndClose() throws(UVError) {
    closeAllHandles()
    run()
    try close()
  }
}
