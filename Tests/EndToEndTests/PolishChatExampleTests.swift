import Foundation
import JSONRPC
import Synchronization
import TestSupport
import UNCenterClient
import XCTest

/// Lines a child process writes to its standard output, collected as they come.
private final class CollectedOutput: Sendable {
  private let text = Mutex("")
  let pipe = Pipe()

  init() {
    pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      if data.isEmpty {
        handle.readabilityHandler = nil
        return
      }
      self?.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
    }
  }

  var value: String { text.withLock { $0 } }

  /// Waits until the output contains `line` as a whole line.
  func wait(forLine line: String, timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if value.split(separator: "\n").contains(where: { $0 == line }) { return true }
      usleep(10_000)
    }
    return false
  }
}

/// The Polish chat example driven as a user would: the daemon delivers its two
/// messages, the user replies to the first with text and deletes the second.
final class PolishChatExampleTests: EndToEndTestCase {
  private static func executable(_ name: String) throws -> URL {
    do {
      return try BuildProducts.url(of: name)
    } catch {
      throw XCTSkip("\(error)")
    }
  }

  private static func waitForExit(_ process: Process, timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    return !process.isRunning
  }

  func testReplyAndDeleteReachTheExampleAndItExits() throws {
    let daemon = try startDaemon()
    let socket = daemon.socketPath
    let me = try daemon.connect()

    let output = CollectedOutput()
    let example = Process()
    example.executableURL = try Self.executable("PolishChatExample")
    example.arguments = ["--socket", socket, "--app", "com.example.chat", "--count", "2"]
    example.standardOutput = output.pipe
    example.standardError = FileHandle.standardError
    try example.run()
    defer { if example.isRunning { example.terminate() } }
    XCTAssertTrue(output.wait(forLine: "ready", timeout: 15), "no 'ready'; output: \(output.value)")

    func ok(_ method: String, _ params: JSONValue) throws -> JSONValue {
      switch try me.call(method, params) {
      case .success(let v): return v
      case .failure(let e):
        XCTFail("\(method): \(e.message)")
        throw e
      }
    }
    _ = try ok("hello", .object(["role": .string("user"), "appId": .string("com.example.chat")]))
    let pending = try ok("listPending", .object([:]))
    XCTAssertEqual(
      pending["requests"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue }, ["message-1", "message-2"])
    let advanced = try ok("advanceClock", .object(["seconds": .int(10)]))
    XCTAssertEqual(advanced["fired"], .array([.string("message-1"), .string("message-2")]))
    // The example's willPresent decides: each is listed once it has answered.
    for id in ["message-1", "message-2"] {
      let event = try ok(
        "waitFor",
        .object(["event": .object(["type": .string("delivered"), "identifier": .string(id)]), "timeout": .int(10)]))
      XCTAssertEqual(event["event"]?["identifier"], .string(id))
    }
    let delivered = try ok("listDelivered", .object([:]))
    XCTAssertEqual(
      delivered["notifications"]?[0]?["actions"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue },
      ["reply", "delete"])

    _ = try ok(
      "respond",
      .object(["identifier": .string("message-1"), "actionIdentifier": .string("reply"), "userText": .string("Dzięki")])
    )
    XCTAssertTrue(output.wait(forLine: "received reply: Dzięki (message-1)", timeout: 10), output.value)
    _ = try ok("respond", .object(["identifier": .string("message-2"), "actionIdentifier": .string("delete")]))

    XCTAssertTrue(Self.waitForExit(example, timeout: 15), "the example did not exit; output: \(output.value)")
    XCTAssertEqual(example.terminationStatus, 0)
    // The pipe may still hold the last lines when the exit is seen.
    XCTAssertTrue(output.wait(forLine: "done: 2 responses", timeout: 5), output.value)
    let lines = output.value.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines.contains("presented message-1: Anna: Cześć! Jak się masz?"), output.value)
    XCTAssertTrue(lines.contains("received delete (message-2)"), output.value)
    XCTAssertEqual(lines.last, "done: 2 responses")

    // The delete ran in the background and was completed before the example left.
    let stats = try ok("stats", .object([:]))
    XCTAssertEqual(stats["openResponses"]?.intValue, 0)
    let left = try ok("listDelivered", .object([:]))
    XCTAssertEqual(left["notifications"]?.arrayValue?.count, 0)
  }
}
