/// Micro-benchmark of the JSON-RPC codec on a typical request: parse, decode into a
/// request, encode a result of similar size.  Foundation's JSONSerialization doing
/// parse + serialize of the same text runs in the same process as a baseline.
///
/// Usage: JSONBench [iterations [parse|decode|encode]]   (default: about one second each)
import Foundation
import JSONRPC

let requestText = #"""
  {"jsonrpc":"2.0","id":12345,"method":"scheduleLocal","params":{"app":"com.bench","identifier":"r-abc123-3-77","content":{"title":"Standup","body":"Daily standup in five minutes, room 4","categoryIdentifier":"reminder","threadIdentifier":"team","userInfo":{"seq":77}},"trigger":{"type":"timeInterval","timeInterval":86400,"repeats":false}}}
  """#
let requestBytes = Array(requestText.utf8)
let requestData = Data(requestBytes)

/// A result object about as large as the request, built once like a server would.
let resultValue: JSONValue = .object([
  "identifier": .string("r-abc123-3-77"),
  "app": .string("com.bench"),
  "scheduled": .bool(true),
  "content": .object([
    "title": .string("Standup"), "body": .string("Daily standup in five minutes, room 4"),
    "categoryIdentifier": .string("reminder"), "threadIdentifier": .string("team"),
  ]),
  "nextFireDate": .number("1764460800.5"),
  "pending": .int(3),
])

/// Keeps results alive so the optimizer cannot drop the work.
nonisolated(unsafe) var sink = 0

func ours() {
  let incoming = requestBytes.withUnsafeBytes { RPCDecoder.decode($0) }
  guard case .single(.request(let request)) = incoming, let id = request.id else { fatalError("bad decode") }
  var out: [UInt8] = []
  out.reserveCapacity(512)
  RPCEncoder.appendResult(id: id, result: resultValue, to: &out)
  sink &+= out.count
}

/// The three stages on their own, to see where the time goes.
let parsedRequest = try! JSONParser.parse(requestBytes)

func parseOnly() {
  let value = requestBytes.withUnsafeBytes { try! JSONParser.parse($0) }
  if case .object(let members) = value { sink &+= members.count }
}

func decodeOnly() {
  if case .single(.request(let request)) = RPCDecoder.decode(value: parsedRequest) {
    sink &+= request.method.utf8.count
  }
}

func encodeOnly() {
  var out: [UInt8] = []
  out.reserveCapacity(512)
  RPCEncoder.appendResult(id: .number("12345"), result: resultValue, to: &out)
  sink &+= out.count
}

func foundation() {
  let object = try! JSONSerialization.jsonObject(with: requestData)
  let data = try! JSONSerialization.data(withJSONObject: object)
  sink &+= data.count
}

func measure(_ iterations: Int, _ body: () -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<iterations { body() }
  return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations)
}

/// Iterations for about one second of `body`, from a short trial run.
func calibrate(_ body: () -> Void) -> Int {
  let trial = measure(2_000, body)
  return max(1_000, Int(1e9 / trial))
}

let fixed = CommandLine.arguments.dropFirst().first.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
/// `JSONBench N parse|decode|encode` runs only that stage, for profiling.
let stages = ["parse": parseOnly, "decode": decodeOnly, "encode": encodeOnly]
if CommandLine.arguments.count > 2, let stage = stages[CommandLine.arguments[2]] {
  let iterations = fixed ?? calibrate(stage)
  print(line(CommandLine.arguments[2], iterations, measure(iterations, stage)))
  exit(0)
}
let oursIterations = fixed ?? calibrate(ours)
let foundationIterations = fixed ?? calibrate(foundation)
let oursNs = measure(oursIterations, ours)
let foundationNs = measure(foundationIterations, foundation)

func line(_ name: String, _ iterations: Int, _ ns: Double) -> String {
  let opsPerSecond = 1e9 / ns
  return
    "\(name.padding(toLength: 38, withPad: " ", startingAt: 0)) \(String(format: "%9.0f ns/op %12.0f ops/s", ns, opsPerSecond))  (\(iterations) iterations)"
}

print("request: \(requestBytes.count) bytes")
print(line("uncenter JSONRPC parse+decode+encode", oursIterations, oursNs))
print(line("Foundation JSONSerialization", foundationIterations, foundationNs))
for (name, stage) in [("  parse only", parseOnly), ("  decode only", decodeOnly), ("  encode only", encodeOnly)] {
  let iterations = fixed ?? calibrate(stage)
  print(line(name, iterations, measure(iterations, stage)))
}
print(String(format: "ratio: Foundation / ours = %.2fx", foundationNs / oursNs))
if sink == 42 { print("") }
