/// `stats`: the daemon's counters.
enum StatsCommand: Command {
  static let name = "stats"
  static let usage = """
    usage: unctl stats

    The daemon's counters: apps, pending and delivered notifications, queues,
    connections, requests, waits, the fire-lateness histogram and the limits.
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    _ = try ParsedArguments.parse(arguments).operands(0...0, "")
    let result = try context.call("stats", nil)
    context.output.result(result) { context.output.keyValues(result) }
    return 0
  }
}
