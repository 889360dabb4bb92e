import Foundation
import JSONRPC
import UNCenterClient

/// unctl: the command-line client.  Exit codes: 0 ok, 1 JSON-RPC error, 2 usage,
/// 3 cannot connect (the socket path tried is in the message).
let usage = """
  usage: unctl [--socket PATH] [--json] COMMAND ...

  commands:
    call METHOD [PARAMS_JSON|-]   send one JSON-RPC request (params from the argument,
                                  or from standard input with -) and print the result
    ping                          check that the daemon answers
    run [--junit F] SCENARIO...   run scenario files (a private daemon each, or --socket)

  options:
    --socket PATH   the daemon's socket (default: $UNCENTER_SOCKET, else
                    $XDG_RUNTIME_DIR/uncenterd.sock, else /tmp/uncenterd-$UID.sock)
    --json          machine output (the default when standard output is not a terminal)
    -h, --help      this help
  """

func fail(_ message: String, _ code: Int32) -> Never {
  FileHandle.standardError.write(Data("unctl: \(message)\n".utf8))
  exit(code)
}

var args = Array(CommandLine.arguments.dropFirst())[...]
var socketOption: String?
parsing: while let first = args.first {
  switch first {
  case "--socket":
    args.removeFirst()
    guard let path = args.popFirst() else { fail("--socket needs a path\n\(usage)", 2) }
    socketOption = path
  case "--json":
    args.removeFirst()
  case "-h", "--help":
    print(usage)
    exit(0)
  default:
    break parsing
  }
}
guard let command = args.popFirst() else { fail("no command\n\(usage)", 2) }
let path = SocketPath.resolve(explicit: socketOption, environment: ProcessInfo.processInfo.environment, uid: getuid())

func parseJSON(_ text: String, what: String) -> JSONValue {
  let bytes = Array(text.utf8)
  do {
    return try bytes.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws(JSONParseError) in try JSONParser.parse(b) }
  } catch {
    fail("\(what) is not valid JSON: \(error)", 2)
  }
}

func run(_ method: String, _ params: JSONValue?) -> Never {
  let connection: RPCConnection
  do {
    connection = try RPCConnection(path: path)
  } catch {
    fail("\(error)", 3)
  }
  do {
    switch try connection.call(method, params) {
    case .success(let result):
      print(String(decoding: result.encoded(), as: UTF8.self))
      exit(0)
    case .failure(let error):
      var members = [JSONMember("code", .int(error.code.rawValue)), JSONMember("message", .string(error.message))]
      if let data = error.data { members.append(JSONMember("data", data)) }
      FileHandle.standardError.write(Data(JSONValue.object(members).encoded() + [0x0A]))
      exit(1)
    }
  } catch {
    fail("\(error)", 3)
  }
}

switch command {
case "call":
  guard let method = args.popFirst() else { fail("call needs a METHOD\n\(usage)", 2) }
  var params: JSONValue?
  if let text = args.popFirst() {
    let source = text == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : text
    params = parseJSON(source, what: "PARAMS_JSON")
  }
  guard args.isEmpty else { fail("unexpected argument '\(args.first!)'\n\(usage)", 2) }
  run(method, params)
case "ping":
  run("ping", nil)
case "run":
  // Scenarios start their own daemon unless --socket names one.
  exit(RunCommand.main(Array(args), socket: socketOption))
default:
  fail("unknown command '\(command)'\n\(usage)", 2)
}
