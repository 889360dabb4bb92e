import Foundation
import JSONRPC
import XCTest

/// Clients of other uids, run with `setpriv` (a small Python client), for what the daemon
/// lets each user do.  They need root.
extension EndToEndTestCase {
  /// Skips the test where clients of other uids cannot be run.
  func requireOtherUsers() throws {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
      FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
    else {
      throw XCTSkip("needs root, setpriv and python3 to act as other users")
    }
  }

  /// Sends `requests` (JSON-RPC texts) on one connection as `uid` and returns one reply
  /// for each, in order (nil for a reply that did not come).
  func calls(as uid: Int, _ socket: String, _ requests: [String]) throws -> [JSONValue?] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    p.arguments =
      [
        "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", "-c",
        """
        import socket,sys
        s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f=s.makefile()
        for r in sys.argv[2:]:
            s.sendall(r.encode()+b'\\n'); print(f.readline(), end='', flush=True)
        """,
        socket,
      ] + requests
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let lines = data.split(separator: UInt8(ascii: "\n")).map { parseLine(Array($0)) }
    return lines + Array(repeating: nil, count: max(0, requests.count - lines.count))
  }

  /// One request as `uid` on a connection of its own, and its reply.
  func call(as uid: Int, _ socket: String, _ request: String) throws -> JSONValue? {
    try calls(as: uid, socket, [request])[0]
  }
}
