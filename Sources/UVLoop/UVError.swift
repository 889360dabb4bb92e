import CLibUV

/// A failed libuv (or libuv-style negative errno) result, with the operation that produced it.
///
/// Carries only plain values so callers outside UVLoop never need to import libuv.
public struct UVError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The negative error code as libuv reports it (e.g. `UV_EADDRINUSE`, which is `-EADDRINUSE` on Linux).
  public let code: Int32
  /// The libuv error name, e.g. "EADDRINUSE".
  public let name: String
  /// The human-readable message from `uv_strerror`.
  public let message: String
  /// The call that failed, e.g. "uv_pipe_bind".
  public let operation: String

  public init(code: Int32, operation: String) {
    self.code = code
    self.operation = operation
    self.name = String(cString: uv_err_name(code))
    self.message = String(cString: uv_strerror(code))
  }

  public var description: String { "\(operation): \(name) (\(message))" }

  /// True for the error libuv reports on end of stream; reads map it to `onEnd(nil)` instead.
  public var isEndOfFile: Bool { code == UV_EOF.rawValue }
  /// True when an operation was cancelled because its handle was closed.
  public var isCancelled: Bool { code == UV_ECANCELED.rawValue }
  /// True when the address (socket path) is already in use.
  public var isAddressInUse: Bool { code == UV_EADDRINUSE.rawValue }
}

/// The single place where libuv status codes become Swift errors, so every call site
/// reports failures the same way (negative means error; zero or positive is success).
@inline(__always)
func uvCheck(_ result: Int32, _ what: String) throws(UVError) {
  if result < 0 { throw UVError(code: result, operation: what) }
}

/// For calls libuv documents as unable to fail (e.g. `uv_timer_stop`): still routed
/// through `uvCheck`, but a failure is a programming error rather than a runtime condition.
@inline(__always)
func uvCheckInfallible(_ result: Int32, _ what: String) {
  do {
    try uvCheck(result, what)
  } catch {
    assertionFailure("unexpected libuv failure: \(error)")
  }
}
