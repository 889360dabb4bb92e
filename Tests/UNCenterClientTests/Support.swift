import Foundation
import JSONRPC
import Synchronization
import UNCenterClient
import XCTest

/// A private `uncenterd` on a temporary socket with a manual clock, started from the
/// build directory (found by walking up from the test bundle's path).
final class TestDaemon {
  let socketPath: String
  private let process = Process()

  static func executable(named name: String) throws -> URL {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while dir.path != "/" {
      let candidate = dir.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir.deleteLastPathComponent()
    }
    throw XCTSkip("\(name) not found above \(CommandLine.arguments[0]); run swift build first")
  }

  init(extraArguments: [String] = []) throws {
    socketPath = "/tmp/unc-client-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
    process.executableURL = try Self.executable(named: "uncenterd")
    process.arguments = ["--socket", socketPath, "--clock", "manual=2026-01-01T08:00:00Z"] + extraArguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if (try? RPCConnection(path: socketPath)) != nil { return }
      usleep(20_000)
    }
    stop()
    throw UNCenterError.connection("uncenterd did not start within 10 s on \(socketPath)")
  }

  func stop() {
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    unlink(socketPath)
  }

  deinit { stop() }

  /// A `user` connection (acts as the person holding the phone) for this app.
  func user(app: String) throws -> RPCConnection {
    let c = try RPCConnection(path: socketPath)
    _ = try c.call("hello", .object(["role": .string("user"), "appId": .string(app)])).get()
    return c
  }
}

extension RPCConnection {
  /// The result, or a test failure with the daemon's error.
  func ok(_ method: String, _ params: JSONValue? = nil, file: StaticString = #filePath, line: UInt = #line) throws
    -> JSONValue
  {
    switch try call(method, params) {
    case .success(let v): return v
    case .failure(let e):
      XCTFail("\(method) failed: \(e.message)", file: file, line: line)
      throw e
    }
  }
}

/// What the delegate saw, in order.
enum DelegateEvent: Sendable, Equatable {
  case willPresent(UNNotification)
  case didReceive(UNNotificationResponse)
}

/// A delegate that records each callback; `next()` waits for the next one.
final class RecordingDelegate: UNUserNotificationCenterDelegate {
  private let events = Mutex<[DelegateEvent]>([])
  let presentationAnswer: UNNotificationPresentationOptions
  /// While true, didReceive does not return (a background action still running).
  private let holding: Mutex<Bool>

  init(presentationAnswer: UNNotificationPresentationOptions = [.banner, .list], holdDidReceive: Bool = false) {
    self.presentationAnswer = presentationAnswer
    holding = Mutex(holdDidReceive)
  }

  /// Lets a held didReceive return.
  func release() { holding.withLock { $0 = false } }

  func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
    -> UNNotificationPresentationOptions
  {
    events.withLock { $0.append(.willPresent(notification)) }
    return presentationAnswer
  }

  func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
    events.withLock { $0.append(.didReceive(response)) }
    while holding.withLock({ $0 }) { try? await Task.sleep(nanoseconds: 5_000_000) }
  }

  /// The next recorded event, waiting up to `timeout` seconds.
  func next(timeout: Double = 5) async -> DelegateEvent? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let e: DelegateEvent? = events.withLock { $0.isEmpty ? nil : $0.removeFirst() }
      if let e { return e }
      try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return nil
  }

  var remaining: [DelegateEvent] { events.withLock { $0 } }
}

/// Parses JSON text for expectations.
func json(_ text: String) -> JSONValue {
  do { return try JSONParser.parse(text) } catch { fatalError("bad JSON in test: \(text): \(error)") }
}
