import UNModel
import XCTest

/// An instant from RFC 3339 text (tests only: the text is known to be valid).
func instant(_ text: String) -> Instant { Instant(rfc3339: text)! }

/// `start` plus whole seconds.
func startPlus(_ seconds: Int64) -> Instant { start.adding(milliseconds: seconds * 1000) }

/// A content extension connection for `app`, serving `categories`.
func contentExtensionSession(app: String = "a", categories: [String], interaction: Bool = false) -> SessionInfo {
  var info = SessionInfo(role: .contentExtension, appId: app)
  info.contentExtension = ContentExtensionInfo(categories: categories, userInteractionEnabled: interaction)
  return info
}

/// A remote push as the server would map it; the payload text stands for the whole payload.
func remotePush(
  _ c: Content, payload: String = #"{"aps":{}}"#, mutable: Bool = false, silent: Bool = false
) -> RemotePush {
  var c = c
  c.userInfo = JSONText(bytes: Array(payload.utf8))
  return RemotePush(content: c, payload: JSONText(bytes: Array(payload.utf8)), mutableContent: mutable, silent: silent)
}

/// Content with alert text (title and body).
func alertContent(_ title: String = "Nowa wiadomość", body: String = "Cześć", category: String = "") -> Content {
  var c = content(title, category: category)
  c.body = body
  return c
}

/// The event kinds in an effect list, in order.
func eventKinds(_ effects: [Effect]) -> [Event.Kind] { events(effects).map(\.kind) }

/// The callbacks sent to one session.
func callbacks(to session: SessionID, _ effects: [Effect]) -> [Callback] {
  callbacks(effects).filter { $0.0 == session }.map(\.1)
}

/// A calendar trigger in UTC.
func utcCalendar(_ c: CalendarTrigger.Components, repeats: Bool) throws -> Trigger {
  .calendar(try CalendarTrigger(dateMatching: c, timeZone: "UTC", repeats: repeats))
}

/// The string field of an event, or nil.
func stringField(_ e: Event?, _ name: String) -> String? {
  if case .string(let s)? = e?[name] { return s }
  return nil
}
