import Foundation

/// systemd socket activation (`sd_listen_fds(3)` without libsystemd): the listening
/// sockets a service manager passed as fds 3, 4, … with `LISTEN_PID`/`LISTEN_FDS`
/// (and optionally `LISTEN_FDNAMES`).
public enum SocketActivation {
  /// The first descriptor passed (`SD_LISTEN_FDS_START`).
  public static let firstDescriptor: Int32 = 3

  /// One inherited listening socket.
  public struct Listener: Equatable, Sendable {
    public var fd: Int32
    /// Its `LISTEN_FDNAMES` entry, when given.
    public var name: String?
    /// The bound address from `getsockname`: a path, `@name` for an abstract socket.
    public var path: String
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The sockets passed to this process, verified to be listening AF_UNIX stream
  /// sockets and marked close-on-exec.  Empty when `LISTEN_PID` is absent or names
  /// another process (the variables were inherited, not meant for us).  Afterwards
  /// `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES` are removed from the process
  /// environment so that children do not take them for their own.
  public static func inheritedListeners(environment: [String: String]) throws(Failure) -> [Listener] {
    defer {
      unsetenv("LISTEN_PID")
      unsetenv("LISTEN_FDS")
      unsetenv("LISTEN_FDNAMES")
    }
    return try listeners(environment: environment, pid: getpid(), start: firstDescriptor)
  }

  /// The checks of `inheritedListeners`, with the pid and first descriptor injectable
  /// for tests (which cannot hand themselves fd 3).
  static func listeners(environment: [String: String], pid: pid_t, start: Int32) throws(Failure) -> [Listener] {
    guard let pidText = environment["LISTEN_PID"], let fdsText = environment["LISTEN_FDS"] else { return [] }
    guard let listenPID = pid_t(pidText) else { throw Failure(description: "LISTEN_PID='\(pidText)' is not a pid") }
    guard listenPID == pid else { return [] }
    guard let count = Int32(fdsText), count >= 0, count < 1024 else {
      throw Failure(description: "LISTEN_FDS='\(fdsText)' is not a descriptor count")
    }
    let names = environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false) }
    var result: [Listener] = []
    for i in 0..<count {
      let fd = start + i
      let path = try verify(fd)
      let flags = fcntl(fd, F_GETFD)
      guard flags >= 0, fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0 else {
        throw Failure(description: "fd \(fd): fcntl: \(String(cString: strerror(errno)))")
      }
      let name = names.flatMap { Int(i) < $0.count ? String($0[Int(i)]) : nil }
      result.append(Listener(fd: fd, name: name, path: path))
    }
    return result
  }

  /// Checks `fd` is a listening AF_UNIX stream socket; returns its address.
  static func verify(_ fd: Int32) throws(Failure) -> String {
    func option(_ name: Int32) throws(Failure) -> Int32 {
      var value: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 else {
        throw Failure(description: "fd \(fd) is not a socket: \(String(cString: strerror(errno)))")
      }
      return value
    }
    guard try option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) else {
      throw Failure(description: "fd \(fd) is not a stream socket")
    }
    guard try option(SO_ACCEPTCONN) != 0 else {
      throw Failure(description: "fd \(fd) is not listening")
    }
    var addr = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let rc = withUnsafeMutablePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard rc == 0 else { throw Failure(description: "fd \(fd): getsockname: \(String(cString: strerror(errno)))") }
    guard addr.sun_family == sa_family_t(AF_UNIX) else {
      throw Failure(description: "fd \(fd) is not an AF_UNIX socket (family \(addr.sun_family))")
    }
    return path(of: addr, length: length)
  }

  /// `sun_path` as text: up to the NUL for a path, `@` + the name for an abstract socket.
  static func path(of addr: sockaddr_un, length: socklen_t) -> String {
    let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    let count = max(0, Int(length) - offset)
    return withUnsafeBytes(of: addr.sun_path) { raw in
      let bytes = Array(raw.prefix(min(count, raw.count)))
      if bytes.first == 0 {
        return bytes.count > 1 ? "@" + String(decoding: bytes.dropFirst(), as: UTF8.self) : ""
      }
      return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
