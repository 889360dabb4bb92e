import JSONRPC

/// `advance SECONDS`: moves the manual clock (advanceClock).
enum AdvanceCommand: Command {
  static let name = "advance"
  static let usage = """
    usage: unctl advance SECONDS

    Moves the daemon's manual clock forward (--clock manual), firing every trigger that
    falls due, in date order.  Prints the new time and the identifiers fired (the first
    1000, and how many more).
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let operands = try ParsedArguments.parse(arguments, for: Self.self).operands(1...1, "SECONDS")
    guard let seconds = Double(operands[0]), seconds.isFinite else {
      throw CLIError.usage("SECONDS must be a number, got '\(operands[0])'")
    }
    let result = try context.call("advanceClock", .object(["seconds": .double(seconds)]))
    context.output.result(result) {
      let fired = (result["fired"]?.arrayValue ?? []).map { Output.text($0) }
      context.output.line("now \(Output.text(result["now"]))")
      // A long advance lists only its first firings; `firedCount` says how many there were.
      let more = (result["firedCount"]?.intValue).map { $0 - fired.count } ?? 0
      context.output.line(
        fired.isEmpty
          ? context.output.dim("fired nothing")
          : "fired " + fired.joined(separator: ", ") + (more > 0 ? " and \(more) more" : ""))
    }
    return 0
  }
}
