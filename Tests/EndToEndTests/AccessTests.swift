import Foundation
import JSONRPC
import XCTest

/// SPEC §9: an app belongs to the uid that first used it; other uids get -32001, root and
/// the daemon's uid may use every app.  Clients of other uids are run with `setpriv`.
final class AccessTests: EndToEndTestCase {
  /// Runs one JSON-RPC request as `uid` and returns the response line.
  private func call(as uid: Int, _ socket: String, _ request: String) throws -> JSONValue? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    p.arguments = [
      "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", "-c",
      "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.argv[2].encode()+b'\\n'); print(s.makefile().readline(), end='')",
      socket, request,
    ]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    p.waitUntilExit()
    return parseLine(Array(out.fileHandleForReading.readDataToEndOfFile()))
  }

  func testOtherUidsAreDeniedTheirAppsButRootIsNot() throws {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    else {
      throw XCTSkip("needs root and setpriv to act as other users")
    }
    let d = try startDaemon(["--clock", "manual=2026-01-01T08:00:00Z", "--socket-mode", "0666"])
    chmod(d.directory, 0o755)
    let schedule =
      #"{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"app":"com.owned","identifier":"r","content":{"title":"t"},"trigger":null}}"#
    let owner = try call(as: 65534, d.socketPath, schedule)
    XCTAssertEqual(owner?["result"]?["scheduled"], .bool(true), "\(String(describing: owner))")

    let list = #"{"jsonrpc":"2.0","id":2,"method":"listDelivered","params":{"app":"com.owned"}}"#
    let stranger = try call(as: 65533, d.socketPath, list)
    XCTAssertEqual(stranger?["error"]?["code"]?.intValue, -32001)
    XCTAssertEqual(stranger?["error"]?["data"]?["reason"]?.stringValue, "accessDenied")
    let hello = #"{"jsonrpc":"2.0","id":3,"method":"hello","params":{"appId":"com.owned"}}"#
    XCTAssertEqual(try call(as: 65533, d.socketPath, hello)?["error"]?["code"]?.intValue, -32001)
    let respond =
      #"{"jsonrpc":"2.0","id":4,"method":"respond","params":{"app":"com.owned","identifier":"r","actionIdentifier":"com.apple.UNNotificationDefaultActionIdentifier"}}"#
    XCTAssertEqual(try call(as: 65533, d.socketPath, respond)?["error"]?["code"]?.intValue, -32001)
    let wait =
      #"{"jsonrpc":"2.0","id":5,"method":"waitFor","params":{"app":"com.owned","event":{"type":"delivered"},"timeout":0}}"#
    XCTAssertEqual(try call(as: 65533, d.socketPath, wait)?["error"]?["code"]?.intValue, -32001)

    XCTAssertEqual(
      try call(as: 65534, d.socketPath, list)?["result"]?["notifications"]?[0]?["identifier"], .string("r"))
    let root = try userConnection(d)
    let rootList = try ok(root.call("listDelivered", J(#"{"app":"com.owned"}"#)))
    XCTAssertEqual(rootList["notifications"]?.arrayValue?.count, 1)
  }
}
