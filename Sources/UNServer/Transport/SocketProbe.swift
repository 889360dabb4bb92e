import Foundation

/// What is at the socket path before the daemon binds it.
enum SocketProbe {
  enum Finding: Equatable {
    case absent
    /// A socket file nobody listens on (connect refused): safe to replace.
    case stale
    /// Another process accepts connections there.
    case live
    /// Something that is not a socket: never deleted.
    case notASocket
  }

  static func probe(_ path: String) -> Finding {
    var st = stat()
    guard lstat(path, &st) == 0 else { return .absent }
    guard (st.st_mode & S_IFMT) == S_IFSOCK else { return .notASocket }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return .stale }
    defer { close(fd) }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return .stale }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let connected = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    return connected == 0 ? .live : .stale
  }
}
