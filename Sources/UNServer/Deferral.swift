/// A `waitFor` that could not be answered at once: the server answers it when a matching
/// event is recorded, or with `{event: null}` when its timeout passes.
struct WaitRequest {
  var filter: JSONValueFilter
  var app: String?
  var timeoutMilliseconds: UInt64
}

/// What a method may leave besides its returned value: a wait to answer later
/// (`waitFor`), or its result already written as bytes (the hot methods skip the tree).
final class Deferral {
  var wait: WaitRequest?
  var encodedResult: [UInt8]?
}
