import Foundation
import JSONRPC
import Synchronization
import UNEndpoint

/// `UNUserNotificationCenter`: one app's connection to `uncenterd`.
///
/// `current()` is Apple's: it needs no setup and connects on first use (the app id from
/// `$UNCENTER_APP`, else the bundle identifier, else the process name; the socket from
/// `$UNCENTER_SOCKET`, `$XDG_RUNTIME_DIR/uncenterd.sock` or `/tmp/uncenterd-$UID.sock`).
/// A connection error is reported where Apple's API reports errors (completion
/// handlers, `throws`), never as a trap; the next call tries again.  `connect(appId:…)`
/// connects at once, for programs that name their app and socket themselves.
///
/// `@unchecked Sendable`: all mutable state is in `Mutex`es (`link`, `tracker`) or in
/// the lock-protected `DelegateBox`; the delegate it points to is only called on the
/// main queue.
public final class UNUserNotificationCenter: @unchecked Sendable {
  struct Link {
    var connection: CenterConnection?
    var hello: JSONValue = .null
    var warnings: [String] = []
    /// `close()` was called: no reconnection.
    var closed = false
  }

  public let appId: String
  private let explicitSocketPath: String?
  let foreground: Bool
  /// The options declared in `hello`: what applies when the app does not answer `present`.
  let declaredPresentation: UNNotificationPresentationOptions
  /// What `willPresent` answers when the delegate implements neither form: `[]` as on
  /// iOS for `current()`, the declared options for `connect(…, presentation:)`.
  let presentationFallback: UNNotificationPresentationOptions
  let link = Mutex(Link())
  let tracker = CallbackTracker()
  private let delegateBox = DelegateBox()

  private static let shared = Mutex<UNUserNotificationCenter?>(nil)

  init(
    appId: String, socketPath: String?, foreground: Bool, presentation: UNNotificationPresentationOptions,
    fallback: UNNotificationPresentationOptions
  ) {
    self.appId = appId
    self.explicitSocketPath = socketPath
    self.foreground = foreground
    self.declaredPresentation = presentation
    self.presentationFallback = fallback
  }

  deinit { link.withLock { $0.connection?.close() } }

  /// The app's shared center (Apple's `current()`): the one `connect` made last, else one
  /// that connects lazily.
  public class func current() -> UNUserNotificationCenter {
    shared.withLock { center in
      if let center { return center }
      let made = UNUserNotificationCenter(
        appId: defaultAppId(ProcessInfo.processInfo.environment), socketPath: nil, foreground: true,
        presentation: [.banner, .list, .sound, .badge], fallback: [])
      center = made
      return made
    }
  }

  /// `$UNCENTER_APP`, else the bundle identifier, else the process name.
  static func defaultAppId(_ environment: [String: String]) -> String {
    if let app = environment["UNCENTER_APP"], !app.isEmpty { return app }
    if let bundle = Bundle.main.bundleIdentifier, !bundle.isEmpty { return bundle }
    return ProcessInfo.processInfo.processName
  }

  /// Connects to the daemon now and says `hello {role: "app", appId, foreground,
  /// presentation, presentationDecision: "delegate"}`, and becomes `current()`.  Pass
  /// the delegate here to receive responses the daemon queued while the app was not
  /// running: they are sent right after `hello`.  `presentation` applies when the app
  /// does not answer a `present` (no delegate, or one without `willPresent`).
  public static func connect(
    appId: String, socketPath: String? = nil, foreground: Bool = true,
    presentation: UNNotificationPresentationOptions = [.banner, .list, .sound, .badge],
    delegate: (any UNUserNotificationCenterDelegate)? = nil
  ) async throws -> UNUserNotificationCenter {
    let center = UNUserNotificationCenter(
      appId: appId, socketPath: socketPath, foreground: foreground, presentation: presentation, fallback: presentation)
    center.delegateBox.delegate = delegate
    let answer = await withCheckedContinuation { (done: CheckedContinuation<Result<JSONValue, UNCenterError>, Never>) in
      do throws(UNCenterError) {
        _ = try center.connection { done.resume(returning: $0) }
      } catch {
        done.resume(returning: .failure(error))
      }
    }
    _ = try answer.get()
    shared.withLock { $0 = center }
    return center
  }

  /// The socket path this center uses.
  public var socketPath: String {
    SocketPath.resolve(
      explicit: explicitSocketPath, environment: ProcessInfo.processInfo.environment, uid: UInt32(getuid()))
  }

  /// The daemon's answer to `hello`: server, version, protocol, clock, queuedResponses.
  public var helloResult: JSONValue { link.withLock { $0.hello } }

  /// The warnings of the last `add` (for example an unregistered category).
  public var lastWarnings: [String] { link.withLock { $0.warnings } }

  /// Content extensions are served (proto-docs/README.md, "Content extension flow").
  public var supportsContentExtensions: Bool { true }

  /// Receives `willPresent`, `didReceive` and `openSettingsFor`; held weakly, as on iOS,
  /// and called on the main queue.  Setting it connects, so that queued responses and
  /// foreground notifications reach it.
  public var delegate: (any UNUserNotificationCenterDelegate)? {
    get { delegateBox.delegate }
    set {
      delegateBox.delegate = newValue
      if newValue != nil { _ = try? connection() }
    }
  }

  /// The connection, made (with its `hello` written first) when there is none or the
  /// last one broke.  `onHello` gets the answer to that `hello` when one is sent.
  func connection(onHello: CenterConnection.Completion? = nil) throws(UNCenterError) -> CenterConnection {
    try link.withLock { (l: inout Link) throws(UNCenterError) -> CenterConnection in
      if let c = l.connection, !c.isClosed { return c }
      if l.closed { throw .connection("the connection was closed") }
      let c = try CenterConnection(path: socketPath)
      l.connection = c
      startCallbackTask(c)
      c.send("hello", helloParams) { [weak self] result in
        switch result {
        case .success(let value): self?.link.withLock { $0.hello = value }
        case .failure(let error) where onHello == nil:
          // Calls written after it would fail with noApp: they fail with the reason instead.
          c.close(reason: "hello failed: \(error)")
        case .failure: c.close()
        }
        onHello?(result)
      }
      return c
    }
  }

  var helloParams: JSONValue {
    .object([
      "role": .string("app"), "appId": .string(appId), "foreground": .bool(foreground),
      "presentation": .array(declaredPresentation.presentationWireNames.map { .string($0) }),
      "presentationDecision": .string("delegate"),
    ])
  }

  /// Closes the connection; calls in flight and later calls fail with `UNCenterError.connection`.
  public func close() {
    link.withLock {
      $0.closed = true
      $0.connection?.close()
    }
    Self.shared.withLock { if $0 === self { $0 = nil } }
  }

  /// Waits until every callback received so far has been handed to the delegate and its
  /// completion handler called (including the `completeResponse` of background actions).
  public func drainCallbacks() async {
    guard let c = link.withLock({ $0.connection }) else { return }
    await c.drainCallbacks()
  }

  /// Any method of the daemon, for what this API does not cover.
  public func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
    try await connection().call(method, params)
  }

  /// Sends without waiting; `completion` (if any) gets the answer on a background queue.
  func send(_ method: String, _ params: JSONValue?, completion: (@Sendable (Result<JSONValue, UNCenterError>) -> Void)?)
  {
    let answer: CenterConnection.Completion = { result in
      guard let completion else { return }
      DispatchQueue.global().async { completion(result) }
    }
    do {
      try connection().send(method, params, completion: answer)
    } catch {
      answer(.failure(error))
    }
  }
}

/// The delegate reference.  `@unchecked Sendable`: the weak reference is read and written
/// only under the lock, and the object it points to is only called on the main queue.
final class DelegateBox: @unchecked Sendable {
  private let lock = NSLock()
  private weak var value: (any UNUserNotificationCenterDelegate)?

  var delegate: (any UNUserNotificationCenterDelegate)? {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }
}
