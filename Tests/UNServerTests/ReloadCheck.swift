// Shared by the XCTest `ReloadEqualsLiveTests` and the fuzz harness `requests` (which
// compiles this file into its UNServer module with -D FUZZ_HARNESS): one definition of
// "what a daemon lists" and of the random programs that exercise every mutating method.
import Foundation
import JSONRPC
import UNModel
import UNProtocol
import UNStore

#if !FUZZ_HARNESS
  @testable import UNServer
#endif

/// A daemon's state as its clients and a restart see it, as lines of text: per app its
/// categories, strings, pending requests with their next dates, delivered notifications,
/// badge, settings, ownership and queued responses; daemon-wide the counters, open
/// responses, modifications, extension responses, the agenda, the manual clock and the
/// event history.
/// Two centers that list the same lines are indistinguishable after a restart.
enum StateListing {
  static func lines(_ center: Center) -> [String] {
    var out: [String] = []
    func add(_ label: String, _ value: JSONValue) {
      out.append("\(label) \(String(decoding: value.encoded(), as: UTF8.self))")
    }
    for key in center.apps.keys.sorted() {
      let appId = key.string
      let app = center.apps[key]!
      let settings = center.settings(app: appId)
      add("\(appId) app", StateCodec.app(app))
      add("\(appId) settings", ModelEncoding.settings(settings))
      add("\(appId) categories", ModelEncoding.tree { CategoryShape.encode(app.categories, &$0) })
      add("\(appId) strings", StateCodec.strings(app.localizedStrings))
      for p in center.listPending(app: appId, after: nil, limit: nil).requests {
        add(
          "\(appId) pending",
          .array([
            ModelEncoding.tree { RequestShape.encode(p, &$0) }, .int(Int(p.addedSequence)), .string(p.anchor.rfc3339),
          ]))
      }
      for n in center.listDelivered(app: appId, after: nil, limit: nil).notifications {
        add(
          "\(appId) delivered",
          .array([ModelEncoding.tree { NotificationShape.encode(n, &$0) }, .int(Int(n.sequence)), .bool(n.late)]))
      }
      for (response, deadline) in app.queuedResponses {
        add(
          "\(appId) queued",
          .array([
            ModelEncoding.tree { NotificationShape.encode(response, &$0) }, deadline.map(ModelEncoding.date) ?? .null,
          ]))
      }
    }
    // The event history `waitFor {since}` reads, numbers and all.
    for event in center.history.events(app: nil, since: 0) {
      out.append("event " + String(decoding: StateCodec.eventRow(event), as: UTF8.self))
    }
    var g = center.snapshotGlobals()
    g.eventSequence = 0  // compared on its own: a restart resumes above it
    add("globals", StateCodec.globals(g))
    out.append("clock \(center.clock.now.rfc3339)")
    return out
  }
}

/// A center whose every change is committed to a store after each request, and a
/// check that a center reloaded from that store lists the same.
final class ReloadCheck {
  static let t0 = Instant(milliseconds: 1_767_254_400_000)  // 2026-01-01T08:00:00Z
  /// Small bounds, so that short programs push events out of the history and delivered
  /// notifications out of full lists: those removals must reach the store too.
  static var centerConfiguration: CenterConfiguration {
    var c = CenterConfiguration()
    c.eventHistoryPerApp = 8
    c.maxDeliveredPerApp = 5
    return c
  }
  let center = Center(clock: ManualClock(ReloadCheck.t0), configuration: ReloadCheck.centerConfiguration)
  let store = MemoryStore()
  let persistence: Persistence
  let dispatcher: Dispatcher
  let configuration: ServerConfiguration
  /// Connections 1...6; connection 6 has a foreign uid (ownership checks).
  let clients = (1...6).map { ClientState(id: $0, peer: .init(pid: 1, uid: $0 == 6 ? 2000 : 1000, gid: 1000)) }
  /// Successful answers per method, to show what a run covered.
  var succeeded: [String: Int] = [:]

  init() {
    var configuration = ServerConfiguration()
    configuration.daemonUID = 1000
    self.configuration = configuration
    center.changes.isEnabled = true
    persistence = Persistence(store: store)
    dispatcher = Dispatcher(
      center: center, configuration: configuration, log: Log(level: .error, journal: false), metrics: Metrics())
  }

  /// Runs one entry from connection `client` (0-based), drops its effects, commits.
  func send(_ entry: Incoming.Entry, from client: Int) {
    let answer = dispatcher.handleCopying(entry, from: clients[client % clients.count])
    if case .request(let r) = entry {
      switch answer {
      case .result?, .encoded?: succeeded[r.method, default: 0] += 1
      case .error(_, let e)? where ProcessInfo.processInfo.environment["RELOAD_DEBUG"] != nil:
        print("ERR", r.method, e.message)
      default: break
      }
    }
    _ = center.takeEffects()
    commit()
  }

  func send(_ text: String, from client: Int) {
    let entries: [Incoming.Entry]
    switch Array(text.utf8).withUnsafeBytes({ RPCDecoder.decode($0, maxDepth: 64) }) {
    case .single(let e): entries = [e]
    case .batch(let list): entries = list
    }
    for entry in entries { send(entry, from: client) }
  }

  /// The connection goes away (its responses queue, its extension work is released).
  func close(_ client: Int) {
    let state = clients[client % clients.count]
    center.detach(state.id)
    state.hello = nil
    _ = center.takeEffects()
    commit()
  }

  private func commit() {
    do {
      try persistence.commit(center)
    } catch {
      fatalError("commit failed: \(error)")
    }
  }

  /// Nil when a center loaded from the store lists what the live one lists; else what
  /// differs.
  func mismatch() -> String? { Self.mismatch(center, store) }

  /// The same for any center committed to `store`.  The reloaded center's clock starts
  /// at the epoch, so the stored clock must bring it to the live one's time.
  static func mismatch(_ center: Center, _ store: StateStore) -> String? {
    let reloaded = Center(clock: ManualClock(Instant(milliseconds: 0)), configuration: center.configuration)
    do {
      try Persistence(store: store).load(into: reloaded)
    } catch {
      return "reload failed: \(error)"
    }
    if reloaded.history.lastSequence < center.history.lastSequence {
      return "event numbering goes back: live \(center.history.lastSequence), reloaded \(reloaded.history.lastSequence)"
    }
    // As bytes: `String ==` would take an NFD spelling for the NFC one.
    let live = StateListing.lines(center).map { Array($0.utf8) }
    let loaded = StateListing.lines(reloaded).map { Array($0.utf8) }
    guard live != loaded else { return nil }
    let onlyLive = live.filter { !loaded.contains($0) }.map { String(decoding: $0, as: UTF8.self) }
    let onlyLoaded = loaded.filter { !live.contains($0) }.map { String(decoding: $0, as: UTF8.self) }
    return "live only:\n  " + onlyLive.joined(separator: "\n  ") + "\nreloaded only:\n  "
      + onlyLoaded.joined(separator: "\n  ")
  }
}

/// Random programs over every mutating method, from a seed: a few apps, identifiers and
/// categories, so that calls meet each other (replacements, responses to delivered
/// notifications, completions of real modification and response ids).
struct RequestProgram {
  enum Step {
    case send(client: Int, text: String)
    case close(client: Int)
  }

  private var state: UInt64
  private var id = 0
  init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

  /// SplitMix64.
  private mutating func next() -> UInt64 {
    state = state &+ 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  private mutating func pick<T>(_ list: [T]) -> T { list[Int(next() % UInt64(list.count))] }
  private mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }

  /// Two spellings of one name (NFC and NFD) among them: two apps, two identifiers.
  private static let apps = ["a", "b", "caf\u{E9}", "cafe\u{301}"]
  private static let identifiers = ["x", "y", "z", "\u{E9}", "e\u{301}"]
  private static let actions = [
    "com.apple.UNNotificationDefaultActionIdentifier", "com.apple.UNNotificationDismissActionIdentifier", "reply",
    "open", "later", "later",
  ]

  private mutating func request(_ method: String, _ params: String) -> String {
    id += 1
    return #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":{\#(params)}}"#
  }

  /// An attachment file the programs may name (`attachmentPath`), made once per process.
  static let attachmentPath: String = {
    let path = NSTemporaryDirectory() + "/reload-check-\(getpid())-image.png"
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 32)
    _ = FileManager.default.createFile(atPath: path, contents: Data(png))
    return path
  }()

  private mutating func content() -> String {
    var fields = [#""title":"\#(pick(["T", "Tytuł", ""]))""#]
    if chance(60) { fields.append(#""body":"b""#) }
    if chance(70) { fields.append(#""categoryIdentifier":"\#(pick(["c1", "c1", "c2", "x"]))""#) }
    if chance(30) { fields.append(#""badge":\#(pick([0, 1, 5]))"#) }
    if chance(20) { fields.append(#""threadIdentifier":"t\#(pick([1, 2]))""#) }
    if chance(20) { fields.append(#""sound":"default""#) }
    if chance(10) { fields.append(#""interruptionLevel":"\#(pick(["passive", "timeSensitive", "critical"]))""#) }
    if chance(10) {
      fields.append(#""attachments":[{"identifier":"img","url":"file://\#(Self.attachmentPath)"}]"#)
    }
    if chance(10) { fields.append(#""userInfo":{"k":[1,"v"]},"targetContentIdentifier":"tc","launchImageName":"l""#) }
    return "{" + fields.joined(separator: ",") + "}"
  }

  private mutating func trigger() -> String {
    switch next() % 5 {
    case 0: return #","trigger":null"#
    case 1: return #","trigger":{"type":"timeInterval","timeInterval":60,"repeats":true}"#
    case 2:
      return
        #","trigger":{"type":"calendar","dateMatching":{"minute":\#(pick([0, 30]))},"repeats":\#(pick(["true", "false"]))}"#
    default: return #","trigger":{"type":"timeInterval","timeInterval":\#(pick([1, 5, 30, 90])),"repeats":false}"#
    }
  }

  /// Ids the center handed out, so completions name real ones.
  struct Known {
    var responses: [String] = []
    var extensionResponses: [String] = []
    var modifications: [String] = []
    var presentations: [String] = []
    /// Delivered notifications as (app, identifier).
    var delivered: [(String, String)] = []

    init() {}
    init(_ center: Center) {
      responses = center.openResponses.keys.sorted()
      extensionResponses = center.pendingExtensionResponses.keys.sorted()
      modifications = center.pendingModifications.keys.sorted()
      presentations = center.pendingPresentations.keys.sorted()
      for (app, state) in center.apps.sorted(by: { $0.key < $1.key }) {
        delivered += state.delivered.keys.sorted { ExactKey($0) < ExactKey($1) }.map { (app.string, $0) }
      }
    }
  }

  private mutating func known(_ ids: [String], else prefix: String) -> String {
    ids.isEmpty || chance(20) ? "\(prefix)-\(next() % 12 + 1)" : pick(ids)
  }

  mutating func step(_ known: Known = Known()) -> Step {
    let app = pick(Self.apps)
    let ident = pick(Self.identifiers)
    let client = chance(5) ? 5 : Int(next() % 5)
    switch next() % 40 {
    case 0:
      return .send(client: 0, text: request("hello", #""appId":"a","foreground":\#(pick(["true", "false"]))"#))
    case 1:
      return .send(client: 1, text: request("hello", #""appId":"b","presentationDecision":"delegate""#))
    case 2: return .send(client: 2, text: request("hello", #""appId":"a","role":"serviceExtension""#))
    case 3:
      return .send(
        client: 3,
        text: request(
          "hello", #""appId":"a","role":"contentExtension","categories":["c1"],"userInteractionEnabled":true"#))
    case 4: return .close(client: Int(next() % 4))
    case 5, 38:
      return .send(
        client: client,
        text: request(
          "registerCategories",
          #""app":"\#(app)","categories":[{"identifier":"c1","actions":[{"identifier":"reply","title":"R","options":["foreground"],"textInput":{"buttonTitle":"S","placeholder":"p"}},{"identifier":"later","title":"L"}],"options":["customDismissAction"]},{"identifier":"c2","actions":[{"identifier":"open","title":"O","options":["\#(pick(["foreground", "destructive", "authenticationRequired"]))"]}]}]"#
        ))
    case 6:
      return .send(
        client: client,
        text: request("registerLocalizedStrings", #""app":"\#(app)","strings":{"K":"v %@","N":"\#(id)"}"#))
    case 7, 8, 9, 10, 11, 12:
      return .send(
        client: client,
        text: request(
          "scheduleLocal", #""app":"\#(app)","identifier":"\#(ident)","content":\#(content())\#(trigger())"#))
    case 13:
      return .send(
        client: client,
        text: request("removePending", #""app":"\#(app)""# + (chance(50) ? #","identifiers":["\#(ident)"]"# : "")))
    case 14:
      return .send(
        client: client,
        text: request("removeDelivered", #""app":"\#(app)""# + (chance(50) ? #","identifiers":["\#(ident)"]"# : "")))
    case 15, 16, 17, 18, 19, 20, 21:
      let (app, ident) = known.delivered.isEmpty || chance(20) ? (app, ident) : pick(known.delivered)
      let action = pick(Self.actions)
      let text = action == "reply" ? #","userText":"ok""# : ""
      return .send(
        client: client,
        text: request(
          "respond",
          #""app":"\#(app)","identifier":"\#(ident)","actionIdentifier":"\#(action)"\#(text)\#(chance(30) ? #","authenticated":true"# : "")"#
        ))
    case 22, 23:
      return .send(
        client: client,
        text: request(
          "completeResponse", #""app":"\#(app)","responseId":"\#(self.known(known.responses, else: "resp"))""#))
    case 24, 25, 26:
      return .send(client: client, text: request("advanceClock", #""seconds":\#(pick([0, 1, 5, 31, 60, 600, 1800]))"#))
    case 27:
      return .send(
        client: client,
        text: request(
          "setAuthorization",
          #""app":"\#(app)","status":"\#(pick(["authorized", "authorized", "authorized", "denied", "notDetermined", "provisional"]))""#
            + (chance(50) ? #","answer":"\#(pick(["grant", "deny"]))""# : "")))
    case 28:
      return .send(
        client: client, text: request("requestAuthorization", #""app":"\#(app)","options":["alert","badge"]"#))
    case 29: return .send(client: client, text: request("setBadgeCount", #""app":"\#(app)","count":\#(next() % 9)"#))
    case 30:
      return .send(
        client: client, text: request("setForeground", #""app":"\#(app)","foreground":\#(pick(["true", "false"]))"#))
    case 31: return .send(client: client, text: request("setDeviceLocked", #""locked":\#(pick(["true", "false"]))"#))
    case 32: return .send(client: client, text: request("reset", #""app":"\#(app)""#))
    case 33:
      let mutable = chance(60) ? #","mutable-content":1"# : ""
      return .send(
        client: client,
        text: request(
          "pushRemote",
          #""app":"a","identifier":"\#(ident)","payload":{"aps":{"alert":{"title":"P","loc-key":"K"},"badge":3\#(mutable)}}"#
        ))
    case 34, 35, 36, 37:
      switch Int(next() % 4) {
      case 0:
        return .send(
          client: 2,
          text: request(
            "completeContent",
            #""requestId":"\#(self.known(known.modifications, else: "mod"))","content":{"title":"M"}"#))
      case 1: return .send(client: client, text: request("expand", #""app":"a","identifier":"\#(ident)""#))
      case 2: return .send(client: client, text: request("collapse", #""app":"a","identifier":"\#(ident)""#))
      default:
        return .send(
          client: 3,
          text: request(
            "completeExtensionResponse",
            #""responseId":"\#(self.known(known.extensionResponses, else: "resp"))","option":"\#(pick(["doNotDismiss", "dismiss", "dismissAndForwardAction"]))""#
          ))
      }
    default:
      return .send(
        client: 1,
        text: request(
          "completePresentation",
          #""presentationId":"\#(self.known(known.presentations, else: "pres"))","options":\#(pick([#"[]"#, #"["list"]"#, #"["banner","sound"]"#]))"#
        ))
    }
  }
}
