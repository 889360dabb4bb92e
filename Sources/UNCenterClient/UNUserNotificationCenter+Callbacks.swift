import Foundation
import JSONRPC
import Synchronization

/// Counts delegate calls whose completion handler has not run yet, so that
/// `drainCallbacks()` can wait for them.
final class CallbackTracker: Sendable {
  private struct State {
    var inFlight = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let state = Mutex(State())

  func begin() { state.withLock { $0.inFlight += 1 } }

  func end() {
    let ready = state.withLock { s -> [CheckedContinuation<Void, Never>] in
      s.inFlight -= 1
      guard s.inFlight == 0 else { return [] }
      defer { s.waiters = [] }
      return s.waiters
    }
    for waiter in ready { waiter.resume() }
  }

  /// Resumes `waiter` once nothing is in flight.
  func whenIdle(_ waiter: CheckedContinuation<Void, Never>) {
    let now = state.withLock { s -> Bool in
      if s.inFlight == 0 { return true }
      s.waiters.append(waiter)
      return false
    }
    if now { waiter.resume() }
  }
}

/// True the first time only: a completion handler called twice acts once.
final class Once: Sendable {
  private let done = Mutex(false)
  func take() -> Bool {
    done.withLock { d in
      defer { d = true }
      return !d
    }
  }
}

extension UNUserNotificationCenter {
  /// Hands each callback of `connection`, in arrival order, to the delegate on the main queue.
  func startCallbackTask(_ connection: CenterConnection) {
    let stream = connection.callbacks
    Task.detached { [weak self] in
      for await item in stream {
        switch item {
        case .barrier(let continuation):
          if let self { self.tracker.whenIdle(continuation) } else { continuation.resume() }
        case .message(let method, let params):
          self?.handleCallback(method, params, on: connection)
        }
      }
    }
  }

  private func handleCallback(_ method: String, _ params: JSONValue, on connection: CenterConnection) {
    switch method {
    case "present": present(params, on: connection)
    case "receive": receive(params, on: connection)
    default: break
    }
  }

  /// `willPresent`: the delegate's answer goes back as `completePresentation` (when the
  /// daemon waits for one), exactly once.
  private func present(_ params: JSONValue, on connection: CenterConnection) {
    let presentationId = params["presentationId"]?.stringValue
    let once = Once()
    tracker.begin()
    let finish: @Sendable (UNNotificationPresentationOptions) -> Void = { [tracker] options in
      guard once.take() else { return }
      if let presentationId {
        let names = options.presentationWireNames.map { JSONValue.string($0) }
        connection.send(
          "completePresentation", .object(["presentationId": .string(presentationId), "options": .array(names)])
        ) { _ in }
      }
      tracker.end()
    }
    guard let n = params["notification"], let notification = try? UNNotification(wireValue: n) else {
      return finish(declaredPresentation)
    }
    DispatchQueue.main.async { [self] in
      MainActor.assumeIsolated {
        guard let delegate else { return finish(presentationFallback) }
        delegate.userNotificationCenter(self, willPresent: notification, withCompletionHandler: finish)
      }
    }
  }

  /// `didReceive`: for a background action (the daemon set a deadline) the completion
  /// handler sends `completeResponse`, as calling it does on iOS.
  private func receive(_ params: JSONValue, on connection: CenterConnection) {
    guard let r = params["response"], let response = try? UNNotificationResponse.from(wireValue: r) else { return }
    let background = params["deadline"] != nil && params["deadline"] != .null
    let once = Once()
    tracker.begin()
    let finish: @Sendable () -> Void = { [tracker] in
      guard once.take() else { return }
      if background {
        connection.send("completeResponse", .object(["responseId": .string(response.responseId)])) { _ in
          tracker.end()
        }
      } else {
        tracker.end()
      }
    }
    DispatchQueue.main.async { [self] in
      MainActor.assumeIsolated {
        guard let delegate else { return finish() }
        delegate.userNotificationCenter(self, didReceive: response, withCompletionHandler: finish)
      }
    }
  }
}
