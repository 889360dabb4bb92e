import Foundation
import JSONRPC
import Synchronization
import UNCenterClient

/// What the delegate saw, in order.
enum DelegateEvent: Sendable, Equatable {
  case willPresent(UNNotification)
  case didReceive(UNNotificationResponse)
}

/// A delegate that records each callback; `next()` waits for the next one.
final class RecordingDelegate: UNUserNotificationCenterDelegate {
  private let events = Mutex<[DelegateEvent]>([])
  let presentationAnswer: UNNotificationPresentationOptions
  /// While true, didReceive does not return (a background action still running).
  private let holding: Mutex<Bool>

  init(presentationAnswer: UNNotificationPresentationOptions = [.banner, .list], holdDidReceive: Bool = false) {
    self.presentationAnswer = presentationAnswer
    holding = Mutex(holdDidReceive)
  }

  /// Lets a held didReceive return.
  func release() { holding.withLock { $0 = false } }

  func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
    -> UNNotificationPresentationOptions
  {
    events.withLock { $0.append(.willPresent(notification)) }
    return presentationAnswer
  }

  func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
    events.withLock { $0.append(.didReceive(response)) }
    while holding.withLock({ $0 }) { try? await Task.sleep(nanoseconds: 5_000_000) }
  }

  /// The next recorded event, waiting up to `timeout` seconds.
  func next(timeout: Double = 5) async -> DelegateEvent? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let e: DelegateEvent? = events.withLock { $0.isEmpty ? nil : $0.removeFirst() }
      if let e { return e }
      try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return nil
  }

  var remaining: [DelegateEvent] { events.withLock { $0 } }
}
