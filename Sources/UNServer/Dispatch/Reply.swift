import JSONRPC

/// What a method answers: a value, the result already written as JSON bytes (the hot
/// methods skip the tree), a wait the server answers later (`waitFor`), files to
/// copy before the request is kept and answered (`AttachmentJob`), or a wait to cancel.
enum Reply {
  case value(JSONValue)
  case bytes([UInt8])
  case wait(WaitRequest)
  /// Boxed: rare, and the other answers are not to grow for it.
  indirect case copy(AttachmentJob)
  /// `$/cancelRequest`: the server cancels the connection's wait with this id.
  case cancel(RequestID)

  /// `.value(.object(...))`, the common answer, spelled as the JSON it is.
  static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> Reply { .value(.object(pairs)) }
  static func object(_ members: [JSONMember]) -> Reply { .value(.object(members)) }
}

/// A `waitFor` that could not be answered at once: the server answers it when a matching
/// event is recorded, or with `{event: null}` when its timeout passes.
struct WaitRequest {
  var filter: JSONValueFilter
  var app: String?
  var timeoutMilliseconds: UInt64
}
