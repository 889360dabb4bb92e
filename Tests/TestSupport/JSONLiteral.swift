import JSONRPC

/// A JSON value from a literal written in a test (test input: a typo is a bug in the test,
/// so it traps with the text instead of failing some later assertion).
public func json(_ text: String) -> JSONValue {
  do {
    return try JSONParser.parse(text)
  } catch {
    fatalError("bad JSON literal in a test: \(text): \(error)")
  }
}
