/// `ping`: the daemon answers with its clock.
enum PingCommand: Command {
  static let name = "ping"
  static let usage = """
    usage: unctl ping

    Checks that the daemon answers; prints its clock ({"now": ...} with --json).
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    _ = try ParsedArguments.parse(arguments, for: Self.self).operands(0...0, "")
    let result = try context.call("ping", nil)
    context.output.result(result) {
      context.output.line("ok " + context.output.dim("now \(Output.text(result["now"])) at \(context.socketPath)"))
    }
    return 0
  }
}
