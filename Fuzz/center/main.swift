// Fuzz harness `center`: the input is a program of operations on one `Center` with a
// `ManualClock`; after every operation the center's invariants are checked.
//
// Each operation is one opcode byte followed by its argument bytes (missing bytes read
// as 0).  Identifiers come from small sets so that operations meet each other:
// apps a/b/c, requests x/y/z/w, categories c1/c2, actions a1/a2, sessions 1...6.
// Checked after every operation (a violation aborts with a message):
// - listPending is ordered by (nextTriggerDate, identifier) without duplicates, has
//   PendingSchedule.count entries, and paging it 2 at a time gives the same list;
// - every pending request's next date is after the clock (they fire when it is reached);
// - after advanceClock nothing on the agenda is due any more;
// - an app's expanded notification is one of its delivered notifications;
// - delivered notifications are keyed by their identifier;
// - every callback in takeEffects() goes to an attached session; pushes waiting for a
//   service extension belong to an attached serviceExtension session;
// - each open background response, modification and extension response has its
//   deadline on the agenda.
import Foundation
import UNModel

private let t0 = Instant(milliseconds: 1_767_254_400_000)  // 2026-01-01T08:00:00Z
private let appIds = ["a", "b", "c"]
private let requestIds = ["x", "y", "z", "w"]
private let categoryIds = ["", "c1", "c2"]
private let actionIds = [
  SystemAction.defaultAction, SystemAction.dismissAction, "a1", "a2", "nope",
]
private let intervals: [Double] = [0.001, 0.5, 1, 5, 30, 59, 60, 61, 90, 3600, 86_400, 0, -1, .nan, 4e9]
// At most a day (plus refused values): a repeating 60 s trigger fires 1440 times a day,
// and longer advances make single inputs take seconds.
private let advances: [Double] = [0, 0.001, 0.5, 1, 5, 29.999, 30, 31, 60, 61, 3600, 7200, 86_400, -1, .infinity, 5e9]
private let zones: [String?] = [nil, "UTC", "Europe/Warsaw", "America/New_York", "Asia/Kolkata", "Bogus/Zone"]

private func fail(_ message: String) -> Never {
  fatalError("center invariant failed: \(message)")
}

/// Reads the program; past the end it yields zeros and `done` is set.
private struct Reader {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0
  var done: Bool { position >= bytes.count }
  mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }
  mutating func pick<T>(_ list: [T]) -> T { list[Int(byte()) % list.count] }
  mutating func bool() -> Bool { byte() & 1 == 1 }
  mutating func maybe<T>(_ make: (inout Reader) -> T) -> T? { bool() ? make(&self) : nil }
  mutating func subset<T>(_ list: [T]) -> [T] {
    let mask = byte()
    return list.enumerated().filter { mask & (1 << ($0.offset % 8)) != 0 }.map(\.element)
  }
}

private func content(_ r: inout Reader) -> Content {
  var c = Content()
  let flags = r.byte()
  if flags & 1 != 0 { c.title = r.pick(["T", "Tytuł", ""]) }
  if flags & 2 != 0 { c.body = "body" }
  if flags & 4 != 0 { c.badge = r.pick([0, 1, 7, -1]) }
  if flags & 8 != 0 { c.categoryIdentifier = r.pick(categoryIds) }
  if flags & 16 != 0 { c.threadIdentifier = r.pick(["t1", "t2"]) }
  if flags & 32 != 0 { c.sound = r.bool() ? .default : .named("ding.caf") }
  if flags & 64 != 0 { c.interruptionLevel = r.pick(InterruptionLevel.allCases) }
  return c
}

private func categories(_ r: inout Reader) -> [Category] {
  let n = Int(r.byte() % 4)
  return (0..<n).map { _ in
    let actions: [Action] = (0..<Int(r.byte() % 4)).map { _ in
      Action(
        identifier: r.pick(["a1", "a2", "a3", ""]), title: "A", options: r.subset(ActionOption.allCases),
        textInput: r.maybe { _ in TextInput(buttonTitle: "Send", placeholder: "…") })
    }
    return Category(identifier: r.pick(categoryIds), actions: actions, options: r.subset(CategoryOption.allCases))
  }
}

private func sessionInfo(_ r: inout Reader) -> SessionInfo {
  let role = r.pick(Role.allCases)
  var info = SessionInfo(
    role: role, appId: r.pick(appIds + [""]), presentation: r.subset(PresentationOption.allCases),
    surface: r.pick(Surface.allCases))
  if role == .contentExtension {
    info.contentExtension = ContentExtensionInfo(
      categories: r.subset(["c1", "c2", ""]), userInteractionEnabled: r.bool(), defaultContentHidden: r.bool())
  }
  if r.byte() % 4 == 0 { info.appId = nil }
  return info
}

private func trigger(_ r: inout Reader) -> Trigger? {
  switch r.byte() % 3 {
  case 0:
    return nil
  case 1:
    guard let t = try? TimeIntervalTrigger(seconds: r.pick(intervals), repeats: r.bool()) else { return .push }
    return .timeInterval(t)
  default:
    let m = r.byte()
    func component(_ bit: UInt8, _ range: ClosedRange<Int>, _ r: inout Reader) -> Int? {
      guard m & bit != 0 else { return nil }
      let span = range.count + 2
      return range.lowerBound - 1 + Int(r.byte()) % span  // sometimes just out of range
    }
    let components = CalendarTrigger.Components(
      year: m & 1 != 0 ? 2025 + Int(r.byte() % 4) : nil, month: component(2, 1...12, &r),
      day: component(4, 1...31, &r), hour: component(8, 0...23, &r), minute: component(16, 0...59, &r),
      second: component(32, 0...59, &r), weekday: component(64, 1...7, &r))
    let zone = r.pick(zones)
    let repeats = r.bool()
    guard
      let c = try? CalendarTrigger(
        dateMatching: components, timeZone: zone, repeats: repeats,
        defaultTimeZone: TimeZone(identifier: "Europe/Warsaw")!)
    else { return .push }
    return .calendar(c)
  }
}

private func checkInvariants(_ center: Center, _ clock: ManualClock, afterAdvance: Bool, op: Int) {
  let now = clock.now
  for (key, app) in center.apps {
    let appId = key.string
    let list = center.listPending(app: appId, after: nil, limit: nil).requests
    if list.count != app.pending.count { fail("op \(op): listPending has \(list.count), schedule \(app.pending.count)") }
    // Identifiers of one date in the order of their bytes.
    for (a, b) in zip(list, list.dropFirst())
    where !((a.nextDate, ExactKey(a.identifier)) < (b.nextDate, ExactKey(b.identifier))) {
      fail("op \(op): pending out of order: \(a.identifier)@\(a.nextDate) before \(b.identifier)@\(b.nextDate)")
    }
    for p in list {
      if app.pending[p.identifier] == nil { fail("op \(op): listed \(p.identifier) not found by identifier") }
      if p.nextDate <= now { fail("op \(op): pending \(p.identifier) due at \(p.nextDate) but now is \(now)") }
    }
    var paged: [PendingRequest] = []
    var cursor: (Instant, String)? = nil
    repeat {
      let page = center.listPending(app: appId, after: cursor, limit: 2)
      paged += page.requests
      cursor = page.next
      if paged.count > list.count { break }
    } while cursor != nil
    if paged.map(\.identifier) != list.map(\.identifier) {
      fail("op \(op): paging gives \(paged.map(\.identifier)), whole list \(list.map(\.identifier))")
    }
    if let expanded = app.expanded, app.delivered[expanded] == nil {
      fail("op \(op): app \(appId) has expanded '\(expanded)' which is not delivered")
    }
    for key in app.delivered.keys {
      if let n = app.delivered[key], key != n.identifier {
        fail("op \(op): delivered key \(key) holds \(n.identifier)")
      }
    }
    if app.delivered.keys.count != app.delivered.count {
      fail("op \(op): delivered count \(app.delivered.count) but \(app.delivered.keys.count) keys")
    }
  }
  if afterAdvance, let next = center.agenda.nextDate, next <= now {
    fail("op \(op): agenda item due at \(next) left after advancing to \(now)")
  }
  for (id, open) in center.openResponses where center.agenda.date(of: .responseDeadline(responseId: id)) == nil {
    fail("op \(op): open response \(id) of \(open.app) has no deadline on the agenda")
  }
  for (id, m) in center.pendingModifications {
    guard center.sessions[m.session]?.role == .serviceExtension else {
      fail("op \(op): modification \(id) waits for session \(m.session), not an attached service extension")
    }
    if center.agenda.date(of: .serviceWillExpire(requestId: id)) == nil
      && center.agenda.date(of: .serviceTimeout(requestId: id)) == nil
    {
      fail("op \(op): modification \(id) has no deadline on the agenda")
    }
  }
  for (id, _) in center.pendingExtensionResponses
  where center.agenda.date(of: .extensionResponseTimeout(responseId: id)) == nil {
    fail("op \(op): extension response \(id) has no deadline on the agenda")
  }
  for effect in center.takeEffects() {
    if case .callback(let session, let callback) = effect, center.sessions[session] == nil {
      fail("op \(op): callback \(callback) for detached session \(session)")
    }
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let clock = ManualClock(t0)
  var configuration = CenterConfiguration()
  configuration.maxPendingPerApp = 3
  var r = Reader(bytes: UnsafeBufferPointer(start: data, count: size))
  configuration.iosLimits = r.bool()
  configuration.initialAuthorization = r.pick([.authorized, .notDetermined, .provisional, .authorized])
  let center = Center(clock: clock, configuration: configuration)
  var op = 0
  while !r.done, op < 200 {
    op += 1
    var advanced = false
    let app = r.pick(appIds)
    switch r.byte() % 22 {
    case 0, 1, 2:
      let request = NotificationRequest(identifier: r.pick(requestIds), content: content(&r), trigger: trigger(&r))
      _ = try? center.schedule(app: app, request)
    case 3:
      _ = try? center.registerCategories(app: app, categories(&r))
    case 4:
      _ = center.removePending(app: app, identifiers: r.maybe { $0.subset(requestIds) })
    case 5:
      _ = center.removeDelivered(app: app, identifiers: r.maybe { $0.subset(requestIds) })
    case 6, 7:
      _ = try? center.respond(
        app: app, identifier: r.pick(requestIds + ["push-1", "push-2"]), actionIdentifier: r.pick(actionIds),
        userText: r.maybe { _ in "text" }, authenticated: r.bool())
    case 8, 9:
      center.attach(SessionID(1 + r.byte() % 6), sessionInfo(&r), foreground: r.bool())
    case 10:
      center.detach(SessionID(1 + r.byte() % 6))
    case 11, 12:
      advanced = (try? center.advanceClock(seconds: r.pick(advances))) != nil
    case 13:
      let push = RemotePush(
        content: content(&r), payload: JSONText(bytes: Array(#"{"aps":{}}"#.utf8)), mutableContent: r.bool(),
        silent: r.byte() % 4 == 0)
      _ = try? center.pushRemote(app: app, push, identifier: r.maybe { $0.pick(requestIds) })
    case 14:
      _ = try? center.expand(app: app, identifier: r.pick(requestIds + ["push-1"]))
    case 15:
      _ = try? center.interact(
        app: app, identifier: r.pick(requestIds + ["push-1"]), control: "slider", value: JSONText(bytes: Array("1".utf8)))
    case 16:
      _ = try? center.collapse(app: app, identifier: r.pick(requestIds + ["push-1"]))
    case 17:
      let ids = center.openResponses.keys.sorted() + ["r-none"]
      let id = r.pick(ids)
      _ = try? center.completeResponse(app: r.bool() ? (center.openResponses[id]?.app ?? app) : app, responseId: id)
    case 18:
      let ids = center.pendingModifications.keys.sorted() + ["mod-none"]
      let id = r.pick(ids)
      let session = r.bool() ? (center.pendingModifications[id]?.session ?? 1) : SessionID(1 + r.byte() % 6)
      _ = try? center.completeContent(session: session, requestId: id, content: r.maybe { content(&$0) })
    case 19:
      let ids = center.pendingExtensionResponses.keys.sorted() + ["resp-none"]
      let id = r.pick(ids)
      let session = r.bool() ? (center.pendingExtensionResponses[id]?.session ?? 1) : SessionID(1 + r.byte() % 6)
      _ = try? center.completeExtensionResponse(
        session: session, responseId: id, option: r.pick(ExtensionResponseOption.allCases))
    case 20:
      switch r.byte() % 5 {
      case 0: _ = center.setAuthorization(app: app, status: r.maybe { $0.pick(AuthorizationStatus.allCases) }, answer: r.maybe { $0.bool() })
      case 1: _ = center.requestAuthorization(app: app, options: r.subset(AuthorizationOption.allCases))
      case 2: center.setForeground(app: app, r.bool())
      case 3: center.deviceLocked = r.bool()
      default: try? center.setBadgeCount(app: app, Int(r.byte()) - 2)
      }
    default:
      center.reset(app: app)
    }
    checkInvariants(center, clock, afterAdvance: advanced, op: op)
  }
  return 0
}
