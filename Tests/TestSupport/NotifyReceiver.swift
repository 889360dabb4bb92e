import Foundation

/// A bound AF_UNIX datagram socket standing in for systemd's notification socket
/// (`$NOTIFY_SOCKET`): at a path, or at an abstract name (`@name` in the variable).
public final class NotifyReceiver {
  public let fd: Int32
  /// What `$NOTIFY_SOCKET` says to reach it.
  public let path: String

  public init(path: String) throws {
    self.path = path
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
    var addr = RawSocket.address(path)
    try bind(&addr, length: socklen_t(MemoryLayout<sockaddr_un>.size))
  }

  /// Bound in the abstract namespace: no file, and a name without a terminating NUL.
  public init(abstract name: String) throws {
    path = "@" + name
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
    var addr = RawSocket.address("\0" + name)
    let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    try bind(&addr, length: socklen_t(offset + 1 + name.utf8.count))
  }

  private func bind(_ addr: inout sockaddr_un, length: socklen_t) throws {
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
    }
    // On a throw, deinit closes the descriptor.
    guard rc == 0 else { throw HarnessError("bind \(path): \(String(cString: strerror(errno)))") }
  }

  deinit { close(fd) }

  /// The next datagram, or nil after `timeout` seconds.
  public func receive(timeout: Double = 10) -> String? {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    return n >= 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
  }
}
