import JSONRPC

/// `call METHOD [PARAMS_JSON|-]`: any method, params as given; prints the result.
enum CallCommand: Command {
  static let name = "call"
  static let usage = """
    usage: unctl call METHOD [PARAMS_JSON|-]

    Sends one JSON-RPC request with the params given as JSON text (or read from standard
    input with -) and prints the result: one JSON line with --json, indented otherwise.
    The params are sent exactly as given (no app is added).
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let a = try ParsedArguments.parse(arguments, for: Self.self)
    let operands = try a.operands(1...2, "METHOD")
    var params: JSONValue?
    if operands.count == 2 {
      let text = operands[1] == "-" ? try JSONInput.read("-") : operands[1]
      params = try JSONInput.parse(text, what: "PARAMS_JSON")
    }
    let result = try context.call(operands[0], params)
    context.output.result(result) { context.output.line(PrettyJSON.text(result)) }
    return 0
  }
}
