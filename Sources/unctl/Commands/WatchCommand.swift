import Foundation
import JSONRPC

/// Set by SIGINT/SIGTERM while `watch` runs.
nonisolated(unsafe) private var interrupted: sig_atomic_t = 0

/// `watch [--app APP...]`: an observer connection printing events until interrupted.
enum WatchCommand: Command {
  static let name = "watch"
  static let options = ["--app"]
  static let usage = """
    usage: unctl watch [--app APP]...

    Connects as an observer (hello role observer), watches the given apps (all apps
    without --app) and prints every event and callback as it arrives until interrupted
    (SIGINT/SIGTERM; exit status 0).  Lines are `date type app identifier key=value...`,
    or with --json one JSON line each: the event's params ({type, app, date, seq, ...})
    for `event` callbacks, the whole message for any other callback.

    options:
      --app APP   watch this app (repeatable)
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    _ = try a.operands(0...0, "")
    let apps = a.all("--app")
    signal(SIGINT) { _ in interrupted = 1 }
    signal(SIGTERM) { _ in interrupted = 1 }
    let connection = try context.connect()
    _ = try context.call("hello", .object(["role": .string("observer")]), on: connection)
    let params: JSONValue? = apps.isEmpty ? nil : .object(["apps": .array(apps.map { .string($0) })])
    _ = try context.call("watch", params, on: connection)
    let out = context.output
    while interrupted == 0 {
      let message: JSONValue?
      do {
        message = try connection.nextNotification(timeout: 0.2)
      } catch {
        if interrupted != 0 { break }
        throw CLIError.connect(error.description)
      }
      guard let message else { continue }
      let method = message["method"]?.stringValue
      if method == "event", let event = message["params"] {
        out.result(event) { out.line(EventLine.text(event, out)) }
      } else {
        out.result(message) {
          out.line(out.bold(method ?? "?") + " " + Output.compact(message["params"] ?? .null))
        }
      }
    }
    return 0
  }
}
