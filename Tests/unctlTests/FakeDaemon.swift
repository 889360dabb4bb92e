import Foundation
import JSONRPC
import XCTest

/// A one-request server on a Unix socket: records the first request line and answers
/// it with "method not found", so tests can see exactly what unctl sent.
///
/// `@unchecked Sendable` is safe here: `path` and `listener` are immutable after `init`,
/// and the only mutable state (`line`, `done`) is read and written with `lock` held, by
/// the serving thread and by `request()`.
final class FakeDaemon: @unchecked Sendable {
  let path: String
  private let listener: Int32
  private let lock = NSCondition()
  private var line: String?
  private var done = false

  init(path: String) throws {
    self.path = path
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let bound = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(listener, 4) == 0 else {
      throw NSError(domain: "FakeDaemon", code: Int(errno))
    }
    Thread.detachNewThread { [self] in serve() }
  }

  deinit { close(listener) }

  private func serve() {
    let fd = accept(listener, nil, nil)
    var received: [UInt8] = []
    if fd >= 0 {
      var chunk = [UInt8](repeating: 0, count: 65536)
      while !received.contains(0x0A) {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { break }
        received += chunk[..<n]
      }
      let request = received.split(separator: 0x0A).first.map { String(decoding: $0, as: UTF8.self) }
      let id = request.flatMap { try? parseJSON($0) }?["id"] ?? .null
      let method = request.flatMap { try? parseJSON($0) }?["method"]?.stringValue ?? "?"
      let answer = JSONValue.object([
        "jsonrpc": .string("2.0"), "id": id,
        "error": .object(["code": .int(-32601), "message": .string("Method not found: \(method)")]),
      ])
      let out = answer.encoded() + [0x0A]
      _ = out.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      close(fd)
      lock.lock()
      line = request
      lock.unlock()
    }
    lock.lock()
    done = true
    lock.broadcast()
    lock.unlock()
  }

  /// The request received (waits up to 10 s for it).
  func request() -> JSONValue? {
    lock.lock()
    defer { lock.unlock() }
    let deadline = Date().addingTimeInterval(10)
    while !done, lock.wait(until: deadline) {}
    return line.flatMap { try? parseJSON($0) }
  }
}
