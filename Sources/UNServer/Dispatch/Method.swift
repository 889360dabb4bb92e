import JSONRPC
import UNModel
import UNProtocol

/// One JSON-RPC method: a name and a handler that returns what to answer.  Each is a
/// small type under `Methods/` (a file, or `Name+Part.swift` files for the larger ones)
/// and is listed once in `MethodTable.all`.
protocol Method: Sendable {
  static var name: String { get }
  /// What the method does to the state: decides whether it runs while the state
  /// directory refuses writes, and whether it may create and claim an app.
  static var kind: MethodKind { get }
  static func handle(_ call: Call) throws(RPCError) -> Reply
}

/// What a method does to the center's state (proto-docs/README.md, "Apps and their
/// owners" and "When the disk is full").
enum MethodKind: Sendable {
  /// Changes nothing durable: runs always; never creates or claims an app (an app that
  /// does not exist reads as empty).
  case read
  /// A client's change: refused with -32010 while the state is not writable; creates the
  /// app it names, which a caller other than root or the daemon's uid then owns.
  case change
  /// Completes what the daemon started (a background action, a service or content
  /// extension, a presentation): runs always, so that nothing the daemon began is left
  /// waiting; its change is written once the disk takes writes again.
  case completion
  /// `hello`: binds the connection; creates and claims its app like a change, and runs
  /// while the state is not writable (reconnecting apps must get their callbacks).
  case session

  /// Whether a call of this kind creates the app it names and claims it for its caller.
  var claims: Bool { self == .change || self == .session }
}

/// A connection's state as the methods see it: its number, what its `hello` said, and
/// who is on the other end.
final class ClientState {
  let id: SessionID
  var hello: SessionInfo?
  let peer: Peer?
  /// Set by `watch`: which apps' events this connection receives (nil apps = all).
  var watching: WatchFilter?

  struct WatchFilter {
    /// By their exact bytes, as apps are told apart everywhere.
    var apps: Set<ExactKey>?
    func includes(_ app: String) -> Bool { apps?.contains(app) ?? true }
  }

  struct Peer: Sendable, Hashable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32
  }

  init(id: SessionID, peer: Peer?) {
    self.id = id
    self.peer = peer
  }
}

/// Everything one method call needs.  The shared parts are read through the dispatcher:
/// a `Call` is made per request, and copying the configuration into it (a struct with
/// several strings) cost a retain and a release of each.
struct Call {
  let params: JSONValue?
  let client: ClientState
  let dispatcher: Dispatcher
  /// The running method's kind: a `.change` or `.session` claims the app it names.
  let kind: MethodKind

  var center: Center { dispatcher.center }
  var configuration: ServerConfiguration { dispatcher.configuration }
  var metrics: Metrics { dispatcher.metrics }
  /// Shared date text of the answers (`WireBytes.date(_:_:cache:)`).
  var dates: DateTextCache { dispatcher.dates }
  /// Shared text of the answers' warnings (`WireBytes.warnings(_:_:cache:)`).
  var warningTexts: WarningsTextCache { dispatcher.warningTexts }

  /// Reads the params object, refusing fields other than `allowed`.
  func params(allowed: [String]) throws(RPCError) -> Params {
    try Params(params, allowed: allowed)
  }

  /// The app a call is about: its `app` param, else the app this connection's hello named.
  /// The caller must be allowed to touch it (proto-docs/README.md, "Apps and their owners").
  func app(_ p: Params) throws(RPCError) -> String {
    try app(named: p.identifier("app"))
  }

  /// The app named by an `app` param already read (nil when absent or null).
  func app(named name: String?) throws(RPCError) -> String {
    if let app = name {
      guard !app.isEmpty else { throw RPCError.invalidParams(field: "app", "must be a non-empty string") }
      try authorize(app)
      return app
    }
    guard let app = client.hello?.appId else { throw ErrorMapping.rpcError(.noApp) }
    try authorize(app)
    return app
  }

  /// An app belongs to the uid whose change (or `hello`) first named it; other uids but
  /// root and the daemon's own are refused.  Reads and completions never claim, and root
  /// and the daemon's uid (operators, test harnesses) use every app without claiming it.
  /// A peer whose credentials cannot be read counts as the daemon's own uid (only possible
  /// for sockets the daemon made itself).
  func authorize(_ app: String) throws(RPCError) {
    let uid = client.peer?.uid ?? configuration.daemonUID
    let privileged = uid == 0 || uid == configuration.daemonUID
    switch owner(app) {
    case nil:
      guard kind.claims else { return }
      center.claim(app: app, uid: privileged ? nil : uid)
    case let owner?:
      guard uid == owner || privileged else {
        throw ErrorMapping.rpcError(.accessDenied(app: app))
      }
    }
  }

  private func owner(_ app: String) -> UInt32? { center.owner(of: app) }

  /// Runs a center operation, mapping its domain errors in the one place that does.
  func model<T>(_ body: () throws(UNError) -> T) throws(RPCError) -> T {
    do {
      return try body()
    } catch {
      throw ErrorMapping.rpcError(error)
    }
  }
}

/// The method table: name → handler, explicit, no giant switch.
enum MethodTable {
  static let all: [any Method.Type] = [
    Hello.self, Ping.self, RegisterCategories.self, GetCategories.self, ScheduleLocal.self, ListPending.self,
    RemovePending.self, ListDelivered.self, RemoveDelivered.self, Respond.self, CompleteResponse.self,
    SetForeground.self, SetDeviceLocked.self, SetBadgeCount.self, GetBadgeCount.self, AdvanceClock.self,
    Reset.self, Discover.self, RequestAuthorization.self, GetNotificationSettings.self, SetAuthorization.self,
    Watch.self, WaitFor.self, Stats.self, PushRemote.self, CompleteContent.self, Expand.self, Collapse.self,
    Interact.self, CompleteExtensionResponse.self, CompletePresentation.self,
    RegisterLocalizedStrings.self, GetLocalizedStrings.self, ReleaseApp.self,
  ]

  /// The one method whose calls the request reader decodes straight from the bytes
  /// (`FastMethod`, `RequestFastPath`): the server and the dispatcher reach it only by
  /// this name.
  typealias Fast = ScheduleLocal

  /// The JSON-RPC world's protocol methods (LSP's `$/...`), apart from the API that `all`
  /// lists and the OpenRPC document describes (proto-docs/README.md, "JSON-RPC").
  static let protocolMethods: [any Method.Type] = [CancelRequest.self]

  static let byName: [String: any Method.Type] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  /// The method called `name`.  The busiest are compared before the name is hashed: a
  /// short string compares at a fraction of the cost of a dictionary lookup.
  static func method(named name: String) -> (any Method.Type)? {
    if name == Ping.name { return Ping.self }
    if name == ListPending.name { return ListPending.self }
    if let method = byName[name] { return method }
    return protocolMethods.first { $0.name == name }
  }
}
