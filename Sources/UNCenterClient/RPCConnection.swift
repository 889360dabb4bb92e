import Foundation
import JSONRPC

/// Why a connection to the daemon failed.
public struct ConnectionError: Error, CustomStringConvertible {
  public var path: String
  public var reason: String
  public var description: String { "cannot connect to \(path): \(reason)" }
}

/// A blocking JSON-RPC connection over the daemon's socket, newline-delimited framing.
/// For command-line tools and tests: one thread uses it at a time.  Server callbacks
/// (notifications) that arrive while waiting for a response are kept in order in
/// `notifications` and can be read with `nextNotification(timeout:)`.
public final class RPCConnection {
  public let path: String
  private let fd: Int32
  private var buffer: [UInt8] = []
  private var nextID = 1
  /// Server notifications received and not yet taken, oldest first.
  public private(set) var notifications: [JSONValue] = []

  public init(path: String) throws(ConnectionError) {
    self.path = path
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ConnectionError(path: path, reason: String(cString: strerror(errno))) }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    // Every stored property is set by now, so a throw runs deinit, which closes fd:
    // closing it here too would close whatever another thread opened under that number.
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
      throw ConnectionError(path: path, reason: "path too long for a Unix socket")
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard rc == 0 else {
      throw ConnectionError(path: path, reason: String(cString: strerror(errno)))
    }
  }

  deinit { close(fd) }

  /// Writes raw bytes as they are (tests use it for broken input).
  public func send(_ bytes: [UInt8]) throws(ConnectionError) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 {
        if errno == EINTR { continue }
        throw ConnectionError(path: path, reason: String(cString: strerror(errno)))
      }
      offset += n
    }
  }

  public func send(_ text: String) throws(ConnectionError) { try send(Array(text.utf8)) }

  /// Sends one request and waits for its response: the result, or the error object.
  public func call(_ method: String, _ params: JSONValue? = nil, timeout: Double = 30) throws(ConnectionError)
    -> Result<JSONValue, RPCError>
  {
    let id = nextID
    nextID += 1
    var members: [JSONMember] = [
      JSONMember("jsonrpc", .string("2.0")), JSONMember("id", .int(id)), JSONMember("method", .string(method)),
    ]
    if let params { members.append(JSONMember("params", params)) }
    try send(JSONValue.object(members).encoded() + [0x0A])
    while true {
      guard let message = try readMessage(timeout: timeout) else {
        throw ConnectionError(path: path, reason: "no response to '\(method)' within \(timeout) s")
      }
      guard message["id"] == .int(id) || message["id"]?.intValue == id else {
        if message["method"] != nil, message["id"] == nil { notifications.append(message) }
        continue
      }
      if let error = message["error"] {
        return .failure(
          RPCError(
            code: ErrorCode(rawValue: error["code"]?.intValue ?? 0), message: error["message"]?.stringValue ?? "",
            data: error["data"]))
      }
      return .success(message["result"] ?? .null)
    }
  }

  /// The next server notification, waiting up to `timeout` seconds; nil if none came.
  public func nextNotification(timeout: Double) throws(ConnectionError) -> JSONValue? {
    if !notifications.isEmpty { return notifications.removeFirst() }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let left = deadline.timeIntervalSinceNow
      guard left > 0, let message = try readMessage(timeout: left) else { return nil }
      if message["method"] != nil, message["id"] == nil { return message }
    }
  }

  /// The next complete line parsed as JSON, or nil on timeout.  A line that is not JSON
  /// is returned as a string value.
  public func readMessage(timeout: Double) throws(ConnectionError) -> JSONValue? {
    guard let line = try readLine(timeout: timeout) else { return nil }
    return (try? line.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in try JSONParser.parse(b) })
      ?? .string(String(decoding: line, as: UTF8.self))
  }

  /// The next raw line (without its newline), or nil on timeout.
  public func readLine(timeout: Double) throws(ConnectionError) -> [UInt8]? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let nl = buffer.firstIndex(of: 0x0A) {
        let line = Array(buffer[..<nl])
        buffer.removeSubrange(...nl)
        return line
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return nil }
      guard try fill(timeout: left) else { return nil }
    }
  }

  /// Reads what is available within `timeout`; false on timeout; throws on EOF or error.
  private func fill(timeout: Double) throws(ConnectionError) -> Bool {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let rc = poll(&pfd, 1, Int32(max(1, min(timeout * 1000, Double(Int32.max)))))
    if rc == 0 { return false }
    if rc < 0 {
      if errno == EINTR { return true }
      throw ConnectionError(path: path, reason: String(cString: strerror(errno)))
    }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if n == 0 { throw ConnectionError(path: path, reason: "connection closed by the daemon") }
    if n < 0 {
      if errno == EINTR || errno == EAGAIN { return true }
      throw ConnectionError(path: path, reason: String(cString: strerror(errno)))
    }
    buffer += chunk[..<n]
    return true
  }

  /// Closes the write side (the daemon sees end of stream, answers what it read).
  public func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

  /// True once the daemon has closed the connection (EOF within `timeout`).
  public func isClosedByPeer(timeout: Double) -> Bool {
    do {
      let deadline = Date().addingTimeInterval(timeout)
      while deadline.timeIntervalSinceNow > 0 {
        _ = try fill(timeout: deadline.timeIntervalSinceNow)
      }
      return false
    } catch {
      return true
    }
  }
}
