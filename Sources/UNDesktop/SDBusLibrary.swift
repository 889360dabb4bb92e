import CSystemd
import Glibc

/// libsystemd's sd-bus functions, looked up at run time (see `CSystemd/shim.h` for why
/// nothing links libsystemd).  One table per bridge; the library itself stays loaded.
///
/// Thread confinement: owned by the loop-confined bridge; not `Sendable`.
final class SDBusLibrary {
  let table: UnsafeMutablePointer<uncenter_sdbus>

  /// Loads the library, or throws what was missing (the dynamic loader's message).
  init() throws(DesktopError) {
    table = UnsafeMutablePointer<uncenter_sdbus>.allocate(capacity: 1)
    if let missing = uncenter_sdbus_load(table) {
      table.deallocate()
      throw .library(String(cString: missing))
    }
  }

  var fn: uncenter_sdbus { table.pointee }

  deinit { table.deallocate() }
}

/// What went wrong on the desktop side; never fatal for the daemon, which goes on
/// without banners and tries again later.
public enum DesktopError: Error, CustomStringConvertible, Sendable {
  case library(String)
  case bus(operation: String, errno: Int32)
  case noBus(String)

  public var description: String {
    switch self {
    case .library(let why): "libsystemd cannot be loaded: \(why)"
    case .bus(let operation, let errno): "\(operation): \(String(cString: strerror(errno)))"
    case .noBus(let why): why
    }
  }
}
