import UNModel
import XCTest

/// 2026-01-01T08:00:00Z, the scenarios' usual start.
let start = Instant(rfc3339: "2026-01-01T08:00:00Z")!

func makeCenter(_ configure: (inout CenterConfiguration) -> Void = { _ in }) -> (Center, ManualClock) {
  var config = CenterConfiguration()
  configure(&config)
  let clock = ManualClock(start)
  return (Center(clock: clock, configuration: config), clock)
}

func content(_ title: String = "t", category: String = "", thread: String = "", badge: Int? = nil) -> Content {
  var c = Content()
  c.title = title
  c.categoryIdentifier = category
  c.threadIdentifier = thread
  c.badge = badge
  return c
}

func interval(_ seconds: Double, repeats: Bool = false) -> Trigger {
  .timeInterval(try! TimeIntervalTrigger(seconds: seconds, repeats: repeats))
}

func request(_ id: String, _ c: Content = content(), _ trigger: Trigger? = nil) -> NotificationRequest {
  NotificationRequest(identifier: id, content: c, trigger: trigger)
}

/// The callbacks in an effect list, by session.
func callbacks(_ effects: [Effect]) -> [(SessionID, Callback)] {
  effects.compactMap { effect in
    if case .callback(let s, let c) = effect { return (s, c) }
    return nil
  }
}

/// The events in an effect list.
func events(_ effects: [Effect]) -> [Event] {
  effects.compactMap { effect in
    if case .event(let e) = effect { return e }
    return nil
  }
}

func assertThrows<T>(
  _ expected: UNError, _ body: () throws(UNError) -> T, file: StaticString = #filePath, line: UInt = #line
) {
  do {
    _ = try body()
    XCTFail("expected \(expected)", file: file, line: line)
  } catch {
    XCTAssertEqual(error, expected, file: file, line: line)
  }
}
