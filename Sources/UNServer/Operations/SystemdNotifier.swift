import Foundation

/// `sd_notify(3)` without libsystemd: datagrams such as `READY=1` sent to the AF_UNIX
/// socket named by `$NOTIFY_SOCKET` (a path, or `@name` for an abstract socket).
///
/// Nothing is sent when `NOTIFY_SOCKET` is unset.  A failure to send is logged once and
/// never stops the daemon: the service manager, not the daemon, decides what a missing
/// notification means.
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
public final class SystemdNotifier {
  /// The notification socket's address and its meaningful length, or nil when unset.
  private let address: (sockaddr_un, socklen_t)?
  /// What `$NOTIFY_SOCKET` said, for log lines.
  public let socketName: String?
  private let log: Log
  private var fd: Int32 = -1
  private var failureLogged = false

  public init(environment: [String: String], log: Log) {
    self.log = log
    let name = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    socketName = name
    address = name.flatMap(Self.socketAddress)
    if name != nil, address == nil {
      log.warn("notify_socket_invalid", ["notify_socket": name!])
      failureLogged = true
    }
  }

  deinit {
    if fd >= 0 { Glibc.close(fd) }
  }

  /// True when `$NOTIFY_SOCKET` names a usable address.
  public var isEnabled: Bool { address != nil }

  /// `READY=1` with a status line and our pid (systemd accepts MAINPID from the main process).
  public func ready(status: String) {
    notify("READY=1\nSTATUS=\(Self.oneLine(status))\nMAINPID=\(getpid())")
  }

  public func status(_ status: String) { notify("STATUS=\(Self.oneLine(status))") }

  public func stopping(status: String) { notify("STOPPING=1\nSTATUS=\(Self.oneLine(status))") }

  public func watchdog() { notify("WATCHDOG=1") }

  /// Sends one datagram; false when disabled or it could not be sent.
  @discardableResult
  public func notify(_ message: String) -> Bool {
    guard let (storedAddress, length) = address else { return false }
    var addr = storedAddress
    if fd < 0 {
      fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard fd >= 0 else { return failed("socket", errno) }
    }
    let bytes = Array(message.utf8)
    let sent = bytes.withUnsafeBytes { buffer in
      withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), $0, length)
        }
      }
    }
    guard sent == bytes.count else { return failed("sendto", sent < 0 ? errno : EMSGSIZE) }
    return true
  }

  private func failed(_ operation: String, _ code: Int32) -> Bool {
    if !failureLogged {
      failureLogged = true
      log.warn(
        "notify_failed",
        ["notify_socket": socketName ?? "", "operation": operation, "error": String(cString: strerror(code))])
    }
    return false
  }

  /// The address for `$NOTIFY_SOCKET`: an absolute path, or `@name` for the abstract
  /// namespace (leading NUL, length without a terminator).  Nil when it cannot be one.
  static func socketAddress(_ name: String) -> (sockaddr_un, socklen_t)? {
    var bytes = Array(name.utf8)
    let abstract = bytes.first == UInt8(ascii: "@")
    if abstract {
      bytes[0] = 0
    } else if bytes.first != UInt8(ascii: "/") {
      return nil
    }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: addr.sun_path)
    // A path needs room for its terminating NUL; an abstract name does not have one.
    guard bytes.count >= 2, bytes.count + (abstract ? 0 : 1) <= capacity else { return nil }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: bytes)
    }
    let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
    return (addr, socklen_t(offset + bytes.count + (abstract ? 0 : 1)))
  }

  /// Half of `$WATCHDOG_USEC` in milliseconds (at least 1) when the watchdog is meant for
  /// this process (`$WATCHDOG_PID` absent or ours), else nil.
  public static func watchdogInterval(environment: [String: String], pid: pid_t = getpid()) -> UInt64? {
    guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
    if let owner = environment["WATCHDOG_PID"], !owner.isEmpty {
      guard let ownerPID = pid_t(owner), ownerPID == pid else { return nil }
    }
    return max(1, usec / 2 / 1000)
  }

  /// A status is one line: newlines would start new assignments.
  static func oneLine(_ text: String) -> String {
    String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
  }
}
