import Foundation
import JSONRPC
import Synchronization
import TestSupport
import XCTest

/// What the attachment tests share: a daemon serving every uid, files only root may
/// read, a client directory of uid 65534's, and clients run as other uids with `setpriv`
/// (a small Python client).  Every test needs root and skips without it.
class AttachmentTestCase: EndToEndTestCase {
  static let client = 65534
  static let secretText = "TOP-SECRET-\(UUID().uuidString)"

  /// A daemon and the files the tests name: `root-only/secret` (0600 root, in a 0755
  /// directory), `own/` (the client's directory) with `public.txt` and `link` (a symbolic
  /// link of the client's to the secret).
  struct World {
    let socketPath: String
    let directory: String
    /// The daemon `makeWorld` started (stopped at teardown).
    var daemon: DaemonProcess?
    var state: String { directory + "/state" }
    var secret: String { directory + "/root-only/secret" }
    var own: String { directory + "/own" }
    var attachments: String { state + "/attachments" }
  }

  func makeWorld(_ arguments: [String] = [], state: String? = nil) throws -> World {
    try requireOtherUsers()
    let directory = try freshDirectory()
    chmod(directory, 0o755)
    let stateDirectory = state ?? directory + "/state"
    if state == nil {
      // Made beforehand with 0755, as an operator's `mkdir` would.
      XCTAssertEqual(mkdir(stateDirectory, 0o755), 0)
      chmod(stateDirectory, 0o755)
    }
    XCTAssertEqual(mkdir(directory + "/root-only", 0o755), 0)
    chmod(directory + "/root-only", 0o755)
    try write(Self.secretText, to: directory + "/root-only/secret", mode: 0o600)
    XCTAssertEqual(mkdir(directory + "/own", 0o755), 0)
    try write("public", to: directory + "/own/public.txt", mode: 0o644)
    XCTAssertEqual(symlink(directory + "/root-only/secret", directory + "/own/link"), 0)
    for path in [directory + "/own", directory + "/own/public.txt", directory + "/own/link"] {
      XCTAssertEqual(lchown(path, uid_t(Self.client), gid_t(Self.client)), 0)
    }
    try write(Self.script, to: directory + "/client.py", mode: 0o644)
    let daemon = try DaemonProcess(
      arguments: ["--clock", "manual=2026-01-01T08:00:00Z", "--socket-mode", "0666", "--state", stateDirectory]
        + arguments, directory: directory)
    addTeardownBlock { daemon.stop() }
    return World(socketPath: daemon.socketPath, directory: directory, daemon: daemon)
  }

  func write(_ text: String, to path: String, mode: mode_t) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, mode)
  }

  /// Sends each request line as `uid` on one connection, one at a time, and returns the
  /// answers (nil for an answer that did not come).
  func calls(as uid: Int, _ world: World, _ requests: [String]) throws -> [JSONValue?] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    p.arguments =
      ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/python3", world.directory + "/client.py"]
      + [world.socketPath] + requests
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map { parseLine(Array($0.utf8)) }
    return (0..<requests.count).map { $0 < lines.count ? lines[$0] : nil }
  }

  /// Sends request lines and prints each answer line (callbacks are skipped).
  static let script = """
    import json, socket, sys
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    r = s.makefile('rb')
    for line in sys.argv[2:]:
        s.sendall(line.encode() + b'\\n')
        want = json.loads(line).get('id')
        while True:
            reply = r.readline()
            if not reply:
                sys.exit(1)
            m = json.loads(reply)
            if 'method' not in m and m.get('id') == want:
                print(reply.decode().rstrip('\\n'), flush=True)
                break
    """

  static func schedule(_ id: Int, _ url: String, app: String = "com.attacker", identifier: String? = nil) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"scheduleLocal","params":{"app":"\#(app)","identifier":"\#(identifier ?? "r\(id)")","content":{"title":"t","attachments":[{"identifier":"a","url":"\#(url)"}]},"trigger":{"type":"timeInterval","timeInterval":60}}}"#
  }

  /// Every regular file and link under `directory`, recursively.
  func files(under directory: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
    var out: [String] = []
    while let name = walker.nextObject() as? String {
      var info = stat()
      if lstat(directory + "/" + name, &info) == 0, info.st_mode & S_IFMT != S_IFDIR { out.append(name) }
    }
    return out
  }

  func assertRefused(
    _ answer: JSONValue?, contains problem: String? = nil, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(answer?["error"]?["code"]?.intValue, -32602, text(answer), file: file, line: line)
    XCTAssertEqual(
      answer?["error"]?["data"]?["field"]?.stringValue, "content.attachments[0].url", text(answer), file: file,
      line: line)
    if let problem {
      let message = answer?["error"]?["message"]?.stringValue ?? ""
      XCTAssertTrue(message.contains(problem), "\(message) lacks '\(problem)'", file: file, line: line)
    }
  }

  /// A service extension for app argv[2]: completes its first modifyContent with an
  /// attachment at argv[3] and prints completeContent's answer.
  static let extensionScript = """
    import json, socket, sys
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    r = s.makefile('rb')
    def send(o):
        s.sendall(json.dumps(o).encode() + b'\\n')
    def answer(i):
        while True:
            line = r.readline()
            m = json.loads(line)
            if m.get('method') == 'modifyContent':
                return m
            if 'method' not in m and m.get('id') == i:
                return line
    send({"jsonrpc": "2.0", "id": 1, "method": "hello", "params": {"appId": sys.argv[2], "role": "serviceExtension"}})
    answer(1)
    print("ready", flush=True)
    m = answer(None)
    rid = m['params']['requestId']
    content = {"title": "changed", "attachments": [{"identifier": "a", "url": sys.argv[3]}]}
    send({"jsonrpc": "2.0", "id": 2, "method": "completeContent", "params": {"requestId": rid, "content": content}})
    print(answer(2).decode().rstrip('\\n'), flush=True)
    """
}

/// A flag set by one thread and read by another.
final class Flag: Sendable {
  private let value = Atomic<Bool>(false)
  var isSet: Bool { value.load(ordering: .acquiring) }
  func set() { value.store(true, ordering: .releasing) }
}
