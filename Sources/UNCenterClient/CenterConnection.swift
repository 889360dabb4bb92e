import Foundation
import JSONRPC
import Synchronization

/// A server callback, or a marker that lets a caller wait until every callback before
/// it has been handled.
enum CallbackItem: Sendable {
  case message(method: String, params: JSONValue)
  case barrier(CheckedContinuation<Void, Never>)
}

/// The asynchronous JSON-RPC connection under `UNUserNotificationCenter`.
///
/// - A dedicated `Thread` owns the read side: it blocks in `recv`, splits lines, and
///   hands each response to the continuation waiting for its id and each callback,
///   in arrival order, to `callbacks` (an `AsyncStream` drained by one task).
/// - Callers write whole request lines while holding `state`'s lock, after
///   registering their continuation, so the reader can never see a response for an
///   id it does not know yet and two requests never interleave on the socket.
/// - `close()` shuts the socket down; the reader then sees end of stream, fails every
///   outstanding call with `.connection` and finishes the callback stream.  The file
///   descriptor itself is closed only in `deinit`, when neither the reader (which holds
///   a strong reference while it runs) nor any caller can use it, so it is never reused
///   under our feet.
///
/// All mutable state is inside a `Mutex`, so the class is `Sendable` without
/// unchecked conformance.
final class CenterConnection: Sendable {
  /// What runs when a request's answer (or the connection's end) arrives, on the reader thread.
  typealias Completion = @Sendable (Result<JSONValue, UNCenterError>) -> Void

  struct State {
    var nextID = 1
    var waiting: [Int: Completion] = [:]
    var closedReason: String?
  }

  let path: String
  private let fd: Int32
  private let state = Mutex(State())
  let callbacks: AsyncStream<CallbackItem>
  private let callbackSink: AsyncStream<CallbackItem>.Continuation

  init(path: String) throws(UNCenterError) {
    self.path = path
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw .connection("cannot connect to \(path): \(String(cString: strerror(errno)))") }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else {
      Foundation.close(fd)
      throw .connection("cannot connect to \(path): path too long for a Unix socket")
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard rc == 0 else {
      let reason = String(cString: strerror(errno))
      Foundation.close(fd)
      throw .connection("cannot connect to \(path): \(reason)")
    }
    self.fd = fd
    (callbacks, callbackSink) = AsyncStream.makeStream(of: CallbackItem.self, bufferingPolicy: .unbounded)
    let thread = Thread { [self] in readLoop() }
    thread.name = "UNCenterClient reader"
    thread.start()
  }

  deinit { Foundation.close(fd) }

  /// Sends a request and waits for its result; a JSON-RPC error is thrown as `.rpc`.
  func call(_ method: String, _ params: JSONValue? = nil) async throws(UNCenterError) -> JSONValue {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<JSONValue, UNCenterError>, Never>) in
      send(method, params) { continuation.resume(returning: $0) }
    }
    return try result.get()
  }

  /// Writes a request now (so requests reach the daemon in the order they were sent,
  /// whichever thread sent them) and calls `completion` with its answer later.
  func send(_ method: String, _ params: JSONValue?, completion: @escaping Completion) {
    let failure: UNCenterError? = state.withLock { s in
      if let reason = s.closedReason { return .connection(reason) }
      let id = s.nextID
      s.nextID += 1
      var members: [JSONMember] = [
        JSONMember("jsonrpc", .string("2.0")), JSONMember("id", .int(id)), JSONMember("method", .string(method)),
      ]
      if let params { members.append(JSONMember("params", params)) }
      if let error = writeAll(JSONValue.object(members).encoded() + [0x0A]) { return .connection(error) }
      s.waiting[id] = completion
      return nil
    }
    if let failure { completion(.failure(failure)) }
  }

  /// Stops the connection: outstanding and later calls fail with `.connection`.
  func close(reason: String = "the connection was closed") {
    state.withLock { s in
      if s.closedReason == nil { s.closedReason = reason }
    }
    _ = shutdown(fd, Int32(SHUT_RDWR))
  }

  var isClosed: Bool { state.withLock { $0.closedReason != nil } }

  /// Waits until every callback received so far has been handled by the callback task.
  func drainCallbacks() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      if case .terminated = callbackSink.yield(.barrier(continuation)) { continuation.resume() }
    }
  }

  // MARK: the reader thread

  private func writeAll(_ bytes: [UInt8]) -> String? {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 {
        if errno == EINTR { continue }
        return String(cString: strerror(errno))
      }
      offset += n
    }
    return nil
  }

  private func readLoop() {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    var reason = "connection closed by the daemon"
    reading: while true {
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        reason = String(cString: strerror(errno))
        break
      }
      if n == 0 { break }
      buffer += chunk[..<n]
      var start = 0
      while let nl = buffer[start...].firstIndex(of: 0x0A) {
        let line = buffer[start..<nl]
        start = nl + 1
        if line.isEmpty { continue }
        guard let message = try? JSONParser.parse(Array(line)) else { continue }
        dispatch(message)
      }
      buffer.removeFirst(start)
    }
    let waiting = state.withLock { s in
      if s.closedReason == nil { s.closedReason = reason }
      let w = s.waiting
      s.waiting = [:]
      return (w, s.closedReason!)
    }
    for (_, completion) in waiting.0 { completion(.failure(.connection(waiting.1))) }
    callbackSink.finish()
  }

  private func dispatch(_ message: JSONValue) {
    if let method = message["method"]?.stringValue, message["id"] == nil {
      callbackSink.yield(.message(method: method, params: message["params"] ?? .null))
      return
    }
    guard let id = message["id"]?.intValue else { return }
    guard let completion = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
    if let error = message["error"] {
      completion(
        .failure(
          .rpc(code: error["code"]?.intValue ?? 0, message: error["message"]?.stringValue ?? "", data: error["data"])))
    } else {
      completion(.success(message["result"] ?? .null))
    }
  }
}
