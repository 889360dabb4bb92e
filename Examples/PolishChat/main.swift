// The Polish seed's AppDelegate (a chat app with a "message" category: reply with text,
// or delete), ported to UNCenterClient.  Usage:
//
//   PolishChatExample [--socket PATH] [--app ID] [--count N]
//
// Connects as the app, registers the categories, schedules two messages (5 s and 10 s
// from now on the daemon's clock), prints `ready`, then prints each response it
// receives (`received reply: <text>`, `received delete`, ...) and exits 0 after N
// responses (default 2).
import Foundation
import UserNotifications

/// Prints a line unbuffered, so a test reading the pipe sees it at once.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

var socketPath: String?
var appId = "com.example.chat"
var expectedResponses = 2
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--socket": socketPath = arguments.next()
  case "--app": appId = arguments.next() ?? appId
  case "--count": expectedResponses = arguments.next().flatMap { Int($0) } ?? expectedResponses
  default:
    FileHandle.standardError.write(Data("usage: PolishChatExample [--socket PATH] [--app ID] [--count N]\n".utf8))
    exit(2)
  }
}

final class AppDelegate: NSObject, UNUserNotificationCenterDelegate {
  /// Each response handled, for the main loop to count.
  let handled: AsyncStream<String>.Continuation

  init(handled: AsyncStream<String>.Continuation) { self.handled = handled }

  func registerNotificationCategories() {
    let replyAction = UNTextInputNotificationAction(
      identifier: "reply",
      title: "Odpowiedz",
      options: [.foreground],
      textInputButtonTitle: "Wyślij",
      textInputPlaceholder: "Wpisz wiadomość..."
    )

    let deleteAction = UNNotificationAction(
      identifier: "delete",
      title: "Usuń",
      options: [.destructive]
    )

    let messageCategory = UNNotificationCategory(
      identifier: "message",
      actions: [replyAction, deleteAction],
      intentIdentifiers: [],
      options: [.customDismissAction]
    )

    UNUserNotificationCenter.current()
      .setNotificationCategories([messageCategory])
  }

  func application(didFinishLaunchingWithOptions options: [String: String]?) -> Bool {
    UNUserNotificationCenter.current().delegate = self
    registerNotificationCategories()
    return true
  }

  /// A chat message as the seed's APNs payload describes it: category "message",
  /// thread "chat_123".
  func scheduleMessage(identifier: String, body: String, after seconds: TimeInterval) async throws {
    let content = UNMutableNotificationContent()
    content.title = "Nowa wiadomość"
    content.body = body
    content.categoryIdentifier = "message"
    content.threadIdentifier = "chat_123"
    content.sound = .default
    content.userInfo = ["chatId": "chat_123"]
    let trigger = UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: false)
    let request = UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)
    let warnings = try await UNUserNotificationCenter.current().addReturningWarnings(request)
    for warning in warnings { say("warning: \(warning)") }
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter,
    willPresent notification: UNNotification,
    withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
  ) {
    say("presented \(notification.request.identifier): \(notification.request.content.body)")
    completionHandler([.banner, .list, .sound])
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter,
    didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler: @escaping () -> Void
  ) {
    let id = response.notification.request.identifier
    switch response.actionIdentifier {
    case "reply":
      let text = (response as? UNTextInputNotificationResponse)?.userText ?? ""
      say("received reply: \(text) (\(id))")
    case "delete":
      center.removeDeliveredNotifications(withIdentifiers: [id])
      say("received delete (\(id))")
    case UNNotificationDefaultActionIdentifier:
      say("received open (\(id))")
    case UNNotificationDismissActionIdentifier:
      say("received dismiss (\(id))")
    default:
      say("received \(response.actionIdentifier) (\(id))")
    }
    handled.yield(response.actionIdentifier)
    completionHandler()
  }
}

do {
  let center = try await UNUserNotificationCenter.connect(appId: appId, socketPath: socketPath)
  let (responses, handled) = AsyncStream.makeStream(of: String.self)
  let appDelegate = AppDelegate(handled: handled)
  _ = appDelegate.application(didFinishLaunchingWithOptions: nil)
  try await appDelegate.scheduleMessage(identifier: "message-1", body: "Anna: Cześć! Jak się masz?", after: 5)
  try await appDelegate.scheduleMessage(identifier: "message-2", body: "Anna: Odezwij się!", after: 10)
  say("ready")
  var count = 0
  for await _ in responses {
    count += 1
    if count >= expectedResponses { break }
  }
  // Let the last background action be completed before leaving.
  await center.drainCallbacks()
  center.close()
  say("done: \(count) responses")
  exit(0)
} catch {
  FileHandle.standardError.write(Data("PolishChatExample: \(error)\n".utf8))
  exit(1)
}
