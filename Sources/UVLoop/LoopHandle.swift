import CLibUV

/// Common lifetime management for every libuv handle wrapper (the shape of Node's
/// HandleWrap and uvloop's UVHandle).
///
/// Ownership rules, from libuv's design notes: handle memory must stay valid until the
/// close callback has run. So each wrapper
/// - allocates its own `uv_xxx_t` memory,
/// - stores a *retained* reference to itself in `handle.data`, keeping itself alive while
///   libuv may still call back into it, even if the user dropped every reference,
/// - releases that reference and deallocates the memory only in the close callback.
/// `close()` only requests closing (`uv_close`), which makes it idempotent and safe to
/// call from inside the handle's own callbacks.
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
/// Subclasses exist only inside UVLoop (the initializer is internal).
public class LoopHandle {
  /// The loop this handle belongs to; retained so the loop outlives its handles.
  public let loop: EventLoop
  /// The handle memory, typed as the common `uv_handle_t` prefix.
  let handle: UnsafeMutablePointer<uv_handle_t>
  /// True once `close()` was called; no further libuv calls are made on the handle.
  public private(set) var isClosing = false
  /// True once the close callback ran and the memory was released.
  public private(set) var isClosed = false
  /// Completion handlers from every `close(_:)` call, run by the close callback.
  private var closeCallbacks: [() -> Void] = []

  /// Takes ownership of initialized handle memory (the `uv_xxx_init` call succeeded).
  init<Handle>(loop: EventLoop, handle: UnsafeMutablePointer<Handle>) {
    self.loop = loop
    self.handle = UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
    // Released in the close callback; this is what keeps the wrapper alive while libuv
    // still holds the pointer.
    self.handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
  }

  /// Recovers the wrapper from a handle's `data` in a C callback, without retaining.
  static func from<Handle>(_ handle: UnsafeMutablePointer<Handle>?) -> Self {
    let raw = UnsafeMutableRawPointer(handle!).assumingMemoryBound(to: uv_handle_t.self)
    let object = Unmanaged<LoopHandle>.fromOpaque(raw.pointee.data!).takeUnretainedValue()
    // Checked in debug builds; the data pointer is always set by `init` of the same wrapper.
    return unsafeDowncast(object, to: self)
  }

  /// Requests closing. Idempotent; later calls only add `done` to the callbacks to run.
  /// Stored callbacks are dropped immediately (breaking retain cycles through them);
  /// memory is released later, in the close callback.
  public func close(_ done: (() -> Void)? = nil) {
    loop.assertOnLoopThread()
    if let done {
      if isClosed {
        done()
        return
      }
      closeCallbacks.append(done)
    }
    guard !isClosing else { return }
    isClosing = true
    handleWillClose()
    uv_close(handle) { handle in
      LoopHandle.from(handle).handleDidClose()
    }
  }

  /// Subclass hook, called once when closing starts: drop stored user closures.
  func handleWillClose() {}

  private func handleDidClose() {
    isClosed = true
    handle.pointee.data = nil
    UnsafeMutableRawPointer(handle).deallocate()
    let callbacks = closeCallbacks
    closeCallbacks = []
    for callback in callbacks { callback() }
    // Balance the retain from init, last: the caller's reference keeps `self` valid until
    // this method returns, and afterwards only user references keep the wrapper alive.
    Unmanaged.passUnretained(self).release()
  }

  /// The OS descriptor behind socket-like handles; nil once closing or for handles
  /// without one (timers, checks).
  var handleFileDescriptor: Int32? {
    guard !isClosing else { return nil }
    var fd: uv_os_fd_t = -1
    do {
      try uvCheck(uv_fileno(handle, &fd), "uv_fileno")
    } catch {
      return nil
    }
    return fd
  }

  /// Whether the handle is active (e.g. a started timer, a reading stream).
  public var isActive: Bool {
    guard !isClosing else { return false }
    return uv_is_active(handle) != 0
  }

  /// Whether this handle keeps `EventLoop.run()` from returning. Unreferenced handles
  /// (e.g. housekeeping timers) still work but do not keep the loop alive on their own.
  public var keepsLoopAlive: Bool {
    get { isClosed ? false : uv_has_ref(handle) != 0 }
    set {
      guard !isClosed else { return }
      if newValue { uv_ref(handle) } else { uv_unref(handle) }
    }
  }
}

/// Handles are confined to their loop's thread.
@available(*, unavailable)
extension LoopHandle: Sendable {}
