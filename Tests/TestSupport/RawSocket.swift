import Foundation

/// A bare socket to the daemon for byte-level tests: any framing, partial writes,
/// reads of exactly what arrived, closing without reading.
public final class RawSocket {
  public let fd: Int32
  public private(set) var buffer: [UInt8] = []
  private var closed = false

  public init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
    var addr = RawSocket.address(path)
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard rc == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(fd)
      throw HarnessError("connect \(path): \(reason)")
    }
  }

  deinit { close() }

  public static func address(_ path: String) -> sockaddr_un {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: bytes.prefix(raw.count - 1))
      raw[min(bytes.count, raw.count - 1)] = 0
    }
    return addr
  }

  public func close() {
    guard !closed else { return }
    closed = true
    Glibc.close(fd)
  }

  public func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

  public func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 {
        if errno == EINTR { continue }
        throw HarnessError("send: \(String(cString: strerror(errno)))")
      }
      offset += n
    }
  }

  public func send(_ text: String) throws { try send(Array(text.utf8)) }

  /// Reads what arrives within `timeout` into the buffer; false on timeout or EOF.
  @discardableResult
  public func fill(timeout: Double) -> Bool {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let rc = poll(&pfd, 1, Int32(max(1, timeout * 1000)))
    guard rc > 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { return false }
    buffer += chunk[..<n]
    return true
  }

  /// Reads until at least `count` bytes are buffered, EOF, or `timeout`; takes them all.
  public func read(atLeast count: Int, timeout: Double = 10) -> [UInt8] {
    let deadline = Date().addingTimeInterval(timeout)
    while buffer.count < count, deadline.timeIntervalSinceNow > 0 {
      if !fill(timeout: deadline.timeIntervalSinceNow) { break }
    }
    defer { buffer.removeAll() }
    return buffer
  }

  /// The next line without its newline, or nil on timeout/EOF.
  public func readLine(timeout: Double = 10) -> [UInt8]? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let nl = buffer.firstIndex(of: 0x0A) {
        let line = Array(buffer[..<nl])
        buffer.removeSubrange(...nl)
        return line
      }
      guard deadline.timeIntervalSinceNow > 0, fill(timeout: deadline.timeIntervalSinceNow) else { return nil }
    }
  }

  public func readLineText(timeout: Double = 10) -> String? {
    readLine(timeout: timeout).map { String(decoding: $0, as: UTF8.self) }
  }

  /// One `Content-Length` framed message: (raw header block, body), or nil on timeout.
  public func readContentLengthMessage(timeout: Double = 10) -> (header: String, body: [UInt8])? {
    let deadline = Date().addingTimeInterval(timeout)
    let separator: [UInt8] = [13, 10, 13, 10]
    while true {
      if let end = buffer.firstRange(of: separator) {
        let header = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
        guard
          let length = header.split(separator: "\r\n").compactMap({ line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
          }).first
        else { return nil }
        if buffer.count - end.upperBound >= length {
          let body = Array(buffer[end.upperBound..<end.upperBound + length])
          buffer.removeSubrange(..<(end.upperBound + length))
          return (header, body)
        }
      }
      guard deadline.timeIntervalSinceNow > 0, fill(timeout: deadline.timeIntervalSinceNow) else { return nil }
    }
  }

  /// True once the daemon closes the connection within `timeout` (data read meanwhile is kept).
  public func isClosedByPeer(timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while deadline.timeIntervalSinceNow > 0 {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&pfd, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { return false }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { return true }
      buffer += chunk[..<n]
    }
    return false
  }
}
