import Foundation
import JSONRPC
import UNEndpoint

/// Global options, the command table and the mapping of failures to exit codes.
enum Main {
  static var commands: [any Command.Type] {
    [
      CallCommand.self, PingCommand.self, CategoriesCommand.self, ScheduleCommand.self, PendingCommand.self,
      DeliveredCommand.self, RespondCommand.self, BadgeCommand.self, AuthCommand.self, AdvanceCommand.self,
      WatchCommand.self, WaitCommand.self, StatsCommand.self, PushCommand.self, ScenarioCommand.self,
      StringsCommand.self,
    ]
  }

  static let usage = """
    usage: unctl [--socket PATH] [--json | --human] COMMAND [ARGS...]
    (the options above may also stand after the command, as in `unctl pending --human`)

    commands:
      call METHOD [PARAMS_JSON|-]   send one JSON-RPC request and print the result
      ping                          check that the daemon answers
      categories [get]              list the app's categories
      categories set FILE|-         register categories (a JSON array, or {"categories": [...]})
      schedule --id ID ...          schedule a local notification (--in SECONDS or --now)
      pending [--limit N]           list pending notification requests
      delivered [--grouped]         list delivered notifications (or their thread groups)
      respond ID ACTION|--default|--dismiss
                                    answer a delivered notification as the user
      badge [N]                     show the badge count, or set it to N
      auth [status|request|set|answer]
                                    authorization status, prompt, Settings, prompt answer
      advance SECONDS               move the manual clock forward, firing due triggers
      watch [--app APP...]          print events as they happen, until interrupted
      wait --event TYPE --timeout S wait for an event (exit 1 when none came in time)
      stats                         the daemon's counters
      push FILE.apns [--app APP]    deliver a remote (APNs) payload, as xcrun simctl push
      strings [get|set FILE...]     the app's localized strings (.strings, .xcstrings, JSON)
      run [--junit F] SCENARIO...   run scenario files (a private daemon each, or --socket)

    options:
      --socket PATH   the daemon's socket (default: $UNCENTER_SOCKET, else
                      $XDG_RUNTIME_DIR/uncenterd.sock, else /tmp/uncenterd-$UID.sock)
      --json          machine output: the result as one JSON line (the default when
                      standard output is not a terminal); errors as JSON on stderr
      --human         text for people even when standard output is not a terminal
      -h, --help      this help; `unctl COMMAND --help` for a command's

    App-scoped commands (categories, schedule, pending, delivered, respond, badge, auth,
    push, strings) take --app APP, else $UNCENTER_APP: unctl connections do not say hello.
    NO_COLOR disables colors.  Exit status: 0 ok, 1 JSON-RPC error, 2 usage,
    3 cannot connect to the daemon, 4 bad input file (push, strings set: unreadable,
    not JSON, or not the expected shape; one line on stderr says what and where).
    """

  static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
    var args = arguments[...]
    var globals = GlobalOptions()
    let plain = Output(json: false, color: false, errorColor: isatty(2) == 1 && environment["NO_COLOR"] == nil)
    while let first = args.first, first.hasPrefix("-") {
      args.removeFirst()
      if first == "-h" || first == "--help" {
        print(usage)
        return 0
      }
      do {
        guard try globals.take(first, from: &args) else {
          plain.usageError("unknown option '\(first)'", usage: usage)
          return 2
        }
      } catch {
        plain.usageError(error.message, usage: usage)
        return 2
      }
    }
    guard let name = args.popFirst() else {
      plain.usageError("no command", usage: usage)
      return 2
    }
    if name == "help" {
      if let topic = args.first, let command = commands.first(where: { $0.name == topic }) {
        print(command.usage)
      } else {
        print(usage)
      }
      return 0
    }
    guard let command = commands.first(where: { $0.name == name }) else {
      plain.usageError("unknown command '\(name)'", usage: usage)
      return 2
    }
    let commandArguments: [String]
    do {
      commandArguments = try globals.lift(args, keepingValuesOf: command.options)
    } catch {
      plain.usageError(error.message, usage: command.usage)
      return 2
    }
    let output = Output.detect(json: globals.json, human: globals.human, environment: environment)
    let path = SocketPath.resolve(explicit: globals.socket, environment: environment, uid: getuid())
    let context = Context(socketPath: path, output: output, environment: environment)
    if command.name == ScenarioCommand.name {
      // Scenarios start their own daemon unless --socket names one.
      return RunCommand.main(commandArguments, socket: globals.socket)
    }
    do {
      return try command.run(commandArguments, context)
    } catch CLIError.help {
      print(command.usage)
      return 0
    } catch CLIError.usage(let message) {
      output.usageError(message, usage: command.usage)
      return 2
    } catch CLIError.rpc(let error) {
      output.rpcError(error)
      return 1
    } catch CLIError.connect(let message) {
      output.failure(message)
      return 3
    } catch CLIError.failure(let message, let code) {
      output.failure(message)
      return code
    } catch {
      output.failure("\(error)")
      return 1
    }
  }
}

/// `run` is `RunCommand` (scenarios); listed here for `help run`.
enum ScenarioCommand: Command {
  static let name = "run"
  static let options = RunOptions.valueOptions
  static var usage: String { RunCommand.usage }
  static func run(_ arguments: [String], _ context: Context) throws -> Int32 { 0 }
}
