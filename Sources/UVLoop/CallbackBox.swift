/// Carries a Swift closure through a libuv request's `data` pointer.
///
/// Requests (connect, shutdown) complete in a C callback that can only see the request,
/// so the completion closure is boxed, retained into `req.data`, and released exactly
/// once by that callback. Confined to the loop's thread like everything in UVLoop.
final class CallbackBox<Value> {
  let callback: (Value) -> Void

  init(_ callback: @escaping (Value) -> Void) {
    self.callback = callback
  }

  /// Retains the box for the duration of a request; balanced by `takeFromRequest`.
  func retainedPointer() -> UnsafeMutableRawPointer {
    Unmanaged.passRetained(self).toOpaque()
  }

  /// Recovers and releases the box stored by `retainedPointer()`.
  static func takeFromRequest(_ data: UnsafeMutableRawPointer?) -> CallbackBox<Value> {
    Unmanaged<CallbackBox<Value>>.fromOpaque(data!).takeRetainedValue()
  }
}
