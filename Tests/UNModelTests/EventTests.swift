import TestSupport
import UNModel
import XCTest

final class EventTests: XCTestCase {
  private func assertIncreasing(_ list: [Event], file: StaticString = #filePath, line: UInt = #line) {
    let seqs = list.map(\.sequence)
    XCTAssertEqual(seqs, seqs.sorted(), file: file, line: line)
    XCTAssertEqual(Set(seqs).count, seqs.count, "sequences are unique", file: file, line: line)
    XCTAssertFalse(seqs.contains(0), file: file, line: line)
  }

  func testScheduledReplacedFiredPresentedDelivered() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = try center.schedule(app: "a", request("m", content(), interval(10)))
    _ = try center.schedule(app: "a", request("m", content(), interval(5)))
    _ = try center.advanceClock(seconds: 5)
    let list = events(center.takeEffects())
    XCTAssertEqual(list.map(\.kind), [.scheduled, .replaced, .fired, .presented, .delivered])
    XCTAssertEqual(list.map(\.sequence), [1, 2, 3, 4, 5])
    XCTAssertEqual(list.map(\.app), Array(repeating: "a", count: 5))
    XCTAssertEqual(list[0]["identifier"], .string("m"))
    XCTAssertEqual(list[0]["nextTriggerDate"], .date(startPlus(10)))
    XCTAssertEqual(list[0].date, start)
    XCTAssertEqual(list[1]["nextTriggerDate"], .date(startPlus(5)))
    XCTAssertEqual(list[2].fields.map(\.0), ["identifier"], "not late under advanceClock")
    XCTAssertEqual(list[2].date, startPlus(5))
    XCTAssertEqual(list[3]["connections"], .int(1))
    XCTAssertEqual(list[4].fields.map(\.0), ["identifier"])
    XCTAssertEqual(list[4].date, startPlus(5))
  }

  func testFiredIsMarkedLateOnCatchUp() throws {
    let (center, clock) = makeCenter()
    _ = try center.schedule(app: "a", request("m", content(), interval(5)))
    clock.set(startPlus(100))
    center.fireDue(upTo: clock.now, late: true)
    let fired = events(center.takeEffects()).filter { $0.kind == .fired }
    XCTAssertEqual(fired.count, 1)
    XCTAssertEqual(fired.first?["late"], .bool(true))
  }

  func testDroppedForEachReason() throws {
    // authorization: scheduling while notDetermined.
    let (c1, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    _ = try c1.schedule(app: "a", request("x", content(), interval(5)))
    let e1 = events(c1.takeEffects())
    XCTAssertEqual(e1.map(\.kind), [.dropped])
    XCTAssertEqual(e1[0]["identifier"], .string("x"))
    XCTAssertEqual(e1[0]["reason"], .string("authorization"))

    // denied: the trigger fires after the user turned notifications off.
    let (c2, _) = makeCenter()
    _ = try c2.schedule(app: "a", request("x", content(), interval(5)))
    _ = c2.setAuthorization(app: "a", status: .denied, answer: nil)
    _ = try c2.advanceClock(seconds: 5)
    let e2 = events(c2.takeEffects())
    XCTAssertEqual(e2.map(\.kind), [.scheduled, .authorization, .fired, .dropped])
    XCTAssertEqual(e2[3]["reason"], .string("denied"))
    XCTAssertEqual(e2[3]["identifier"], .string("x"))

    // iosLimits: the 65th request drops the least recently added.
    let (c3, _) = makeCenter { $0.iosLimits = true }
    for i in 0..<65 { _ = try c3.schedule(app: "a", request("r\(i)", content(), interval(100))) }
    let e3 = events(c3.takeEffects())
    XCTAssertEqual(e3.filter { $0.kind == .scheduled }.count, 65)
    let dropped = e3.filter { $0.kind == .dropped }
    XCTAssertEqual(dropped.count, 1)
    XCTAssertEqual(dropped[0]["identifier"], .string("r0"))
    XCTAssertEqual(dropped[0]["reason"], .string("iosLimits"))
    XCTAssertEqual(c3.app("a").pending.count, 64)

    // neverFires: a one-shot calendar date in the past.
    let (c4, _) = makeCenter()
    _ = try c4.schedule(
      app: "a", request("x", content(), try utcCalendar(.init(year: 2025, month: 6, day: 1, hour: 9), repeats: false)))
    let e4 = events(c4.takeEffects())
    XCTAssertEqual(e4.map(\.kind), [.dropped])
    XCTAssertEqual(e4[0]["reason"], .string("neverFires"))
  }

  func testRespondedExpiredAndRemoved() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    center.attach(1, SessionInfo(role: .app, appId: "a"))
    _ = try center.schedule(app: "a", request("m", content(category: "message"), nil))
    _ = try center.schedule(app: "a", request("k", content(), nil))
    _ = try center.schedule(app: "a", request("p1", content(), interval(50)))
    _ = try center.schedule(app: "a", request("p2", content(), interval(60)))
    _ = center.takeEffects()
    _ = try center.respond(app: "a", identifier: "m", actionIdentifier: "reply", userText: "Hej", authenticated: false)
    _ = try center.respond(
      app: "a", identifier: "k", actionIdentifier: SystemAction.dismissAction, userText: nil, authenticated: false)
    _ = center.takeEffects()
    _ = try center.schedule(app: "a", request("d1", content(), nil))
    _ = try center.schedule(app: "a", request("d2", content(), nil))
    _ = center.takeEffects()
    XCTAssertEqual(center.removeDelivered(app: "a", identifiers: ["d2", "nope"]), 1)
    XCTAssertEqual(center.removePending(app: "a", identifiers: nil), 2)
    XCTAssertEqual(center.removePending(app: "a", identifiers: ["p1"]), 0)
    let removed = events(center.takeEffects())
    XCTAssertEqual(removed.map(\.kind), [.removed, .removed], "nothing removed, no event")
    XCTAssertEqual(removed[0]["list"], .string("delivered"))
    XCTAssertEqual(removed[0]["identifiers"], .strings(["d2"]))
    XCTAssertEqual(removed[1]["list"], .string("pending"))
    XCTAssertEqual(removed[1]["identifiers"], .strings(["p1", "p2"]))

    // A background action left unsettled expires.
    _ = try center.schedule(app: "a", request("m2", content(category: "message"), nil))
    _ = center.takeEffects()
    let r = try center.respond(
      app: "a", identifier: "m2", actionIdentifier: "delete", userText: nil, authenticated: false)
    let responded = events(center.takeEffects())
    XCTAssertEqual(responded.map(\.kind), [.responded])
    XCTAssertEqual(responded[0].fields.map(\.0), ["identifier", "actionIdentifier", "responseId"])
    XCTAssertEqual(responded[0]["actionIdentifier"], .string("delete"))
    XCTAssertEqual(responded[0]["responseId"], .string(r.responseId))
    _ = try center.advanceClock(seconds: 30)
    let expired = events(center.takeEffects())
    XCTAssertEqual(expired.map(\.kind), [.expired])
    XCTAssertEqual(expired[0]["responseId"], .string(r.responseId))
    XCTAssertEqual(expired[0].date, startPlus(30))
  }

  func testRespondedCarriesUserText() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    _ = try center.schedule(app: "a", request("m", content(category: "message"), nil))
    _ = center.takeEffects()
    _ = try center.respond(app: "a", identifier: "m", actionIdentifier: "reply", userText: "Hej", authenticated: false)
    let e = events(center.takeEffects())
    XCTAssertEqual(e.map(\.kind), [.responded])
    XCTAssertEqual(e[0]["identifier"], .string("m"))
    XCTAssertEqual(e[0]["userText"], .string("Hej"))
    XCTAssertEqual(e[0]["responseId"], .string("resp-1"))
  }

  func testAuthorizationEventOnlyWhenTheStatusChanges() {
    let (center, _) = makeCenter { $0.initialAuthorization = .notDetermined }
    _ = center.requestAuthorization(app: "a", options: [.alert])
    _ = center.requestAuthorization(app: "a", options: [.alert])
    _ = center.setAuthorization(app: "a", status: .authorized, answer: nil)
    _ = center.setAuthorization(app: "a", status: .denied, answer: nil)
    let e = events(center.takeEffects())
    XCTAssertEqual(e.map(\.kind), [.authorization, .authorization])
    XCTAssertEqual(e[0]["status"], .string("authorized"))
    XCTAssertEqual(e[1]["status"], .string("denied"))
  }

  func testPushEvents() throws {
    let (center, _) = makeCenter()
    center.attach(1, SessionInfo(role: .app, appId: "a"), foreground: false)
    center.attach(2, SessionInfo(role: .serviceExtension, appId: "a"))
    _ = try center.pushRemote(app: "a", remotePush(content()), identifier: "p")
    XCTAssertEqual(eventKinds(center.takeEffects()), [.pushed, .delivered])
    _ = try center.pushRemote(app: "a", remotePush(Content(), silent: true), identifier: nil)
    let silent = events(center.takeEffects())
    XCTAssertEqual(silent.map(\.kind), [.pushed, .remote])
    XCTAssertEqual(silent[0]["identifier"], .string("push-2"))
    XCTAssertEqual(silent[0]["silent"], .bool(true))
    XCTAssertEqual(silent[1]["identifier"], .string("push-2"))
    XCTAssertEqual(silent[1]["connections"], .int(1))
    _ = try center.pushRemote(app: "a", remotePush(alertContent(), mutable: true), identifier: "mm")
    let modifying = events(center.takeEffects())
    XCTAssertEqual(modifying.map(\.kind), [.pushed, .modifying])
    XCTAssertEqual(modifying[0]["silent"], .bool(false))
    XCTAssertEqual(modifying[1]["identifier"], .string("mm"))
    XCTAssertEqual(modifying[1]["requestId"], .string("mod-1"))
    _ = try center.completeContent(session: 2, requestId: "mod-1", content: alertContent("Zmieniona"))
    let modified = events(center.takeEffects())
    XCTAssertEqual(modified.map(\.kind), [.modified, .delivered])
    XCTAssertEqual(modified[0]["identifier"], .string("mm"))
    XCTAssertEqual(modified[0]["modified"], .bool(true))
  }

  func testContentExtensionEvents() throws {
    let (center, _) = makeCenter()
    _ = try center.registerCategories(app: "a", [messageCategory])
    center.attach(9, contentExtensionSession(categories: ["message"], interaction: true))
    _ = try center.schedule(app: "a", request("m", content(category: "message"), nil))
    _ = center.takeEffects()
    _ = try center.expand(app: "a", identifier: "m")
    try center.interact(app: "a", identifier: "m", control: "like", value: JSONText(bytes: Array("true".utf8)))
    let r = try center.respond(
      app: "a", identifier: "m", actionIdentifier: SystemAction.defaultAction, userText: nil, authenticated: false)
    _ = try center.completeExtensionResponse(session: 9, responseId: r.responseId, option: .doNotDismiss)
    try center.collapse(app: "a", identifier: "m")
    let e = events(center.takeEffects())
    XCTAssertEqual(e.map(\.kind), [.expanded, .interaction, .responded, .extensionResponse, .collapsed])
    XCTAssertEqual(e[0]["extension"], .bool(true))
    XCTAssertEqual(e[1]["control"], .string("like"))
    XCTAssertEqual(e[2]["toExtension"], .bool(true))
    XCTAssertEqual(e[3]["responseId"], .string(r.responseId))
    XCTAssertEqual(e[3]["option"], .string("doNotDismiss"))
    XCTAssertEqual(e[4]["identifier"], .string("m"))
    assertIncreasing(e)
  }

  func testSequenceIncreasesAcrossAppsAndCalls() throws {
    let (center, _) = makeCenter()
    var all: [Event] = []
    for i in 0..<4 {
      _ = try center.schedule(app: i % 2 == 0 ? "a" : "b", request("r\(i)", content(), interval(Double(i + 1))))
      all += events(center.takeEffects())
    }
    _ = try center.advanceClock(seconds: 10)
    all += events(center.takeEffects())
    XCTAssertEqual(all.map(\.sequence), Array(1...UInt64(all.count)))
    XCTAssertEqual(center.history.lastSequence, UInt64(all.count))
  }

  func testHistoryIsBoundedPerApp() throws {
    let (center, _) = makeCenter { $0.eventHistoryPerApp = 3 }
    for i in 0..<5 { _ = try center.schedule(app: "a", request("a\(i)", content(), interval(100))) }
    _ = try center.schedule(app: "b", request("b0", content(), interval(100)))
    XCTAssertEqual(center.history.events(app: "a", since: 0).map(\.sequence), [3, 4, 5])
    XCTAssertEqual(center.history.events(app: "b", since: 0).map(\.sequence), [6])
    XCTAssertEqual(center.history.events(app: nil, since: 0).map(\.sequence), [3, 4, 5, 6])
    XCTAssertEqual(center.history.events(app: nil, since: 4).map(\.sequence), [5, 6])
    XCTAssertEqual(center.history.events(app: "a", since: 5).map(\.sequence), [])
    XCTAssertEqual(center.history.events(app: "zzz", since: 0).count, 0)
  }

  func testEventHistoryRecordForgetAndMinimumBound() {
    var h = EventHistory(perApp: 0)
    XCTAssertEqual(h.perApp, 1)
    var evicted: UInt64?
    let e1 = h.record(Event(.scheduled, app: "a", date: start), evicted: &evicted)
    XCTAssertNil(evicted)
    let e2 = h.record(Event(.fired, app: "a", date: start), evicted: &evicted)
    XCTAssertEqual(evicted, 1)
    let e3 = h.record(Event(.fired, app: "b", date: start), evicted: &evicted)
    XCTAssertNil(evicted)
    XCTAssertEqual([e1.sequence, e2.sequence, e3.sequence], [1, 2, 3])
    XCTAssertEqual(h.events(app: "a", since: 0).map(\.kind), [.fired])
    h.forget(app: "a")
    XCTAssertEqual(h.events(app: "a", since: 0).count, 0)
    XCTAssertEqual(h.events(app: nil, since: 0).map(\.sequence), [3])
    XCTAssertEqual(
      h.record(Event(.fired, app: "a", date: start), evicted: &evicted).sequence, 4, "forget does not reuse numbers")
  }

  func testResetClearsTheAppsHistoryOnly() throws {
    let (center, _) = makeCenter()
    _ = try center.schedule(app: "a", request("x", content(), interval(5)))
    _ = try center.schedule(app: "b", request("y", content(), interval(5)))
    center.reset(app: "a")
    XCTAssertEqual(center.history.events(app: "a", since: 0).count, 0)
    XCTAssertEqual(center.history.events(app: "b", since: 0).map(\.sequence), [2])
    XCTAssertEqual(center.app("a").pending.count, 0)
    _ = try center.schedule(app: "a", request("z", content(), interval(5)))
    XCTAssertEqual(center.history.events(app: "a", since: 0).map(\.sequence), [3])
  }
}
