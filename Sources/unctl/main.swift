import Foundation

/// unctl: the command-line client of uncenterd.  Exit codes: 0 ok, 1 JSON-RPC error
/// (or `wait` timed out), 2 usage, 3 cannot connect (the socket path tried is in the message).
exit(Main.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
