import UNModel
import UVLoop

/// Shows the center's banners on the desktop's notification server and turns the
/// person's answers there into `respond`s (proto-docs/README.md,
/// "Desktop: org.freedesktop.Notifications").
///
/// A consumer of the center's effects, like a connection: the server
/// hands it every effect it routes; it reads the delivered list only through `lookup`,
/// and answers only through `onAnswer`.  The center does not know it exists.
///
/// Thread confinement: the loop's thread owns it, as it owns all daemon state.
public final class DesktopBridge {
  /// One of our notifications on the server: its server id once `Notify` answered.
  struct Shown {
    var serverId: UInt32?
    /// The text-input action offered (its reply comes as `NotificationReplied`).
    var replyAction: String?
    /// Removed while `Notify` was in flight: close as soon as the id is known.
    var closeWhenKnown = false
    /// Replaced while `Notify` was in flight: shown, replacing, once the id is known.
    var queued: DeliveredNotification?
  }

  public enum LogLevel: Sendable { case debug, info, warn }
  public typealias Logger = (LogLevel, String, [(String, String)]) -> Void

  let loop: EventLoop
  let address: String?
  let retryMilliseconds: UInt64
  let log: Logger
  /// The delivered notification `identifier` of `app`, as `listDelivered` would show it.
  let lookup: (String, String) -> DeliveredNotification?
  /// Runs a `respond` for the person at the desktop; true when the center accepted it.
  public var onAnswer: ((DesktopAnswer) -> Bool)?

  public internal(set) var counters = DesktopCounters()
  var library: SDBusLibrary?
  var bus: DesktopBus?
  /// The server's capabilities; nil while there is no server.
  var capabilities: Set<String>?
  /// The server's unique bus name: only its signals are taken.
  var serverOwner: String?
  /// Bumped whenever the server or the bus goes away: late replies of the old one are ignored.
  var epoch = 0
  /// app → request identifier → what is shown, by their exact bytes.
  var shown: [ExactKey: [ExactKey: Shown]] = [:]
  /// server id → (app, identifier).
  var byServerId: [UInt32: (app: String, identifier: String)] = [:]
  /// The notification a foreground app's connection got with `banner`, until the
  /// `presented` event names its app.
  var bannerPresent: DeliveredNotification?
  /// The last `presented` (app, identifier): its `delivered` event is not a background delivery.
  var lastPresented: (app: String, identifier: String)?
  /// One warning per outage, not one per failed call: set when warned, cleared when connected.
  var warned = false
  var retryTimer: LoopTimer?
  var stopped = false

  public init(
    loop: EventLoop, address: String?, retryMilliseconds: UInt64 = 5000, log: @escaping Logger,
    lookup: @escaping (String, String) -> DeliveredNotification?
  ) {
    self.loop = loop
    self.address = address
    self.retryMilliseconds = retryMilliseconds
    self.log = log
    self.lookup = lookup
  }

  // MARK: the center's effects

  /// Called for every effect the server routes, in order.
  public func consume(_ effect: Effect) {
    switch effect {
    case .callback(_, .present(let notification, _, let presentation)):
      if presentation.contains(.banner) { bannerPresent = notification }
    case .callback:
      return
    case .event(let event):
      consume(event)
    }
  }

  private func consume(_ event: Event) {
    switch event.kind {
    case .presented:
      guard case .string(let id)? = event["identifier"] else { return }
      lastPresented = (event.app, id)
      if case .strings(let options)? = event["presentation"] {
        // The app's willPresent decided (completePresentation): its answer says banner or
        // not, whatever the connections declared in hello.
        bannerPresent = nil
        if options.contains(PresentationOption.banner.rawValue), let notification = lookup(event.app, id) {
          show(app: event.app, notification)
        }
        return
      }
      if let notification = bannerPresent, notification.identifier.exactlyEquals(id) {
        show(app: event.app, notification)
      }
      bannerPresent = nil
    case .delivered:
      guard case .string(let id)? = event["identifier"] else { return }
      defer { lastPresented = nil }
      if let last = lastPresented, last.app.exactlyEquals(event.app), last.identifier.exactlyEquals(id) { return }
      // Provisional authorization delivers quietly: no banner.
      if case .bool(true)? = event["quiet"] { return }
      if let notification = lookup(event.app, id) { show(app: event.app, notification) }
    case .responded, .removed, .extensionResponse:
      closeRemoved(app: event.app)
    default:
      return
    }
  }

  /// Closes the app's banners whose notification is no longer delivered.
  func closeRemoved(app: String) {
    guard let entries = shown[app] else { return }
    for (identifier, _) in entries where lookup(app, identifier.string) == nil {
      close(app: app, identifier: identifier.string)
    }
  }
}
