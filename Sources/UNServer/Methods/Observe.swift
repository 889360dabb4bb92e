import JSONRPC
import UNModel
import UNProtocol

/// `watch`: this connection receives `event` callbacks (for the given apps, or all).
enum Watch: Method {
  static let name = "watch"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["apps"])
    let apps = try p.identifierArray("apps", nonEmpty: true)
    for app in apps ?? [] { try call.authorize(app) }
    if call.client.watching == nil { call.metrics.watchers += 1 }
    call.client.watching = .init(apps: apps.map { Set($0.map { ExactKey($0) }) })
    return .object(["watching": apps.map { .array($0.map { .string($0) }) } ?? .string("all")])
  }
}

/// `waitFor`: the first event matching a filter (a subset of its fields), already
/// recorded since `since` (an event `seq`; 0 = all kept) or arriving within `timeout`
/// real seconds; `{event: null}` on timeout.
enum WaitFor: Method {
  static let name = "waitFor"
  static let kind = MethodKind.read
  static let maxTimeoutSeconds = 3600.0

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "event", "timeout", "since"])
    guard let filter = p.value("event") else { throw RPCError.invalidParams(field: "event", "required") }
    guard case .object = filter else {
      throw RPCError.invalidParams(field: "event", "expected an object, got \(filter.typeName)")
    }
    let timeout = try p.double("timeout") ?? 10
    guard timeout >= 0, timeout <= maxTimeoutSeconds else {
      throw RPCError.invalidParams(field: "timeout", "must be a number in 0...\(Int(maxTimeoutSeconds))")
    }
    let since = try p.int("since", in: 0...Int.max) ?? 0
    var app = try p.identifier("app")
    if app == nil, let named = filter["app"]?.stringValue {
      try Params.refuseNUL(named, field: "event.app")
      app = named
    }
    app = app ?? call.client.hello?.appId
    if let app { try call.authorize(app) }
    for event in call.center.history.events(app: app, since: UInt64(since)) {
      let json = ModelEncoding.event(event)
      if json.matches(filter) { return .object(["event": json]) }
    }
    return .wait(WaitRequest(filter: filter, app: app, timeoutMilliseconds: UInt64(timeout * 1000)))
  }
}
