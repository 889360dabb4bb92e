import JSONRPC

/// A method's result that writes itself as JSON.  The outbox encodes it straight into the
/// connection's output (`Dispatcher.Answer.written`), with no array of its own per
/// answer to fill, copy and free, and without knowing which method made it.
protocol WireResult {
  /// Appends the result's JSON to `o`, with the answers' shared texts (dates, warnings).
  func write(into o: inout [UInt8], dates: DateTextCache, warnings: WarningsTextCache)
}

/// A method whose calls the request reader may decode straight from the message bytes,
/// without a `JSONValue` tree (`RequestFastPath`).  The server keeps one `FastCall` per
/// read and has each message read into it (assigning fields is cheaper than moving a
/// new value out); the dispatcher runs it with `run(fast:_:)`, and its result writes
/// itself into the connection's output.  `MethodTable.Fast` names the one method read
/// this way.
protocol FastMethod: Method {
  associatedtype FastCall
  associatedtype FastResult: WireResult
  /// The value a read starts from.
  static var emptyCall: FastCall { get }
  /// Runs a call the reader decoded, as `handle` runs the same call read from a tree.
  static func run(fast: FastCall, _ call: Call) throws(RPCError) -> FastResult
}
