import JSONRPC
import UNModel
import XCTest

@testable import UNServer

/// Durability as a property: after random sequences of every mutating method, each
/// committed as the daemon commits (once per request here, so more often than once per
/// loop iteration), a center loaded from the store lists exactly what the live one
/// lists.  The longer run of the same check is the `requests` fuzz harness.
final class ReloadEqualsLiveTests: XCTestCase {
  /// The methods that change durable state; a run must have seen each succeed.
  private let mutating = [
    "hello", "registerCategories", "registerLocalizedStrings", "scheduleLocal", "removePending", "removeDelivered",
    "respond", "completeResponse", "advanceClock", "setAuthorization", "requestAuthorization", "setBadgeCount",
    "setForeground", "setDeviceLocked", "reset", "pushRemote", "completeContent", "expand", "collapse",
    "completeExtensionResponse", "completePresentation",
  ]

  /// Each completion in its setting (random programs reach them rarely): a background
  /// action, a response queued while the app has no connection, a service extension's
  /// modification, a content extension's response, a delegated presentation.
  private let scripted: [(client: Int, text: String?)] = [
    (0, #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"appId":"a"}}"#),
    (2, #"{"jsonrpc":"2.0","id":2,"method":"hello","params":{"appId":"a","role":"serviceExtension"}}"#),
    (
      3,
      #"{"jsonrpc":"2.0","id":3,"method":"hello","params":{"appId":"a","role":"contentExtension","categories":["c1"]}}"#
    ),
    (1, #"{"jsonrpc":"2.0","id":4,"method":"hello","params":{"appId":"b","presentationDecision":"delegate"}}"#),
    (
      4,
      #"{"jsonrpc":"2.0","id":5,"method":"registerCategories","params":{"app":"a","categories":[{"identifier":"c1","actions":[{"identifier":"later","title":"L"}]}]}}"#
    ),
    (
      4,
      #"{"jsonrpc":"2.0","id":6,"method":"scheduleLocal","params":{"app":"a","identifier":"x","content":{"title":"T","categoryIdentifier":"c1"}}}"#
    ),
    (
      4,
      #"{"jsonrpc":"2.0","id":7,"method":"respond","params":{"app":"a","identifier":"x","actionIdentifier":"later"}}"#
    ),
    (4, #"{"jsonrpc":"2.0","id":8,"method":"completeResponse","params":{"app":"a","responseId":"resp-1"}}"#),
    (
      4,
      #"{"jsonrpc":"2.0","id":9,"method":"scheduleLocal","params":{"app":"a","identifier":"y","content":{"title":"T","categoryIdentifier":"c1"}}}"#
    ),
    (4, #"{"jsonrpc":"2.0","id":10,"method":"expand","params":{"app":"a","identifier":"y"}}"#),
    (4, #"{"jsonrpc":"2.0","id":13,"method":"collapse","params":{"app":"a","identifier":"y"}}"#),
    (4, #"{"jsonrpc":"2.0","id":10,"method":"expand","params":{"app":"a","identifier":"y"}}"#),
    (
      4,
      #"{"jsonrpc":"2.0","id":11,"method":"respond","params":{"app":"a","identifier":"y","actionIdentifier":"later"}}"#
    ),
    (
      3,
      #"{"jsonrpc":"2.0","id":12,"method":"completeExtensionResponse","params":{"responseId":"resp-2","option":"dismissAndForwardAction"}}"#
    ),
    (0, nil),
    (
      4,
      #"{"jsonrpc":"2.0","id":14,"method":"scheduleLocal","params":{"app":"a","identifier":"z","content":{"title":"T"}}}"#
    ),
    (
      4,
      #"{"jsonrpc":"2.0","id":15,"method":"respond","params":{"app":"a","identifier":"z","actionIdentifier":"com.apple.UNNotificationDefaultActionIdentifier"}}"#
    ),
    (
      4,
      #"{"jsonrpc":"2.0","id":16,"method":"pushRemote","params":{"app":"a","payload":{"aps":{"alert":{"title":"P"},"mutable-content":1}}}}"#
    ),
    (
      2, #"{"jsonrpc":"2.0","id":17,"method":"completeContent","params":{"requestId":"mod-1","content":{"title":"M"}}}"#
    ),
    (
      4,
      #"{"jsonrpc":"2.0","id":18,"method":"scheduleLocal","params":{"app":"b","identifier":"x","content":{"title":"T"}}}"#
    ),
    (
      1,
      #"{"jsonrpc":"2.0","id":19,"method":"completePresentation","params":{"presentationId":"pres-1","options":["list"]}}"#
    ),
    (0, #"{"jsonrpc":"2.0","id":20,"method":"hello","params":{"appId":"a"}}"#),
  ]

  func testAReloadedCenterListsWhatTheLiveOneLists() {
    let script = ReloadCheck()
    for (n, step) in scripted.enumerated() {
      if let text = step.text { script.send(text, from: step.client) } else { script.close(step.client) }
      if let mismatch = script.mismatch() { return XCTFail("scripted step \(n + 1):\n\(mismatch)") }
    }
    XCTAssertEqual(script.succeeded.values.reduce(0, +), scripted.count - 1, "\(script.succeeded)")
    var covered = script.succeeded
    for seed in UInt64(1)...60 {
      let check = ReloadCheck()
      var program = RequestProgram(seed: seed)
      for stepNumber in 1...100 {
        let step = program.step()
        switch step {
        case .send(let client, let text):
          check.send(text, from: client)
        case .close(let client): check.close(client)
        }
        if stepNumber % 8 == 0 || stepNumber == 100, let mismatch = check.mismatch() {
          return XCTFail("seed \(seed), after step \(stepNumber) (\(step)):\n\(mismatch)")
        }
      }
      covered.merge(check.succeeded, uniquingKeysWith: +)
    }
    for method in mutating {
      XCTAssertGreaterThan(covered[method] ?? 0, 0, "no successful \(method) in any sequence")
    }
  }

  /// An advance that fires nothing moves durable state (the manual clock) too.
  func testAnAdvanceAloneIsCommitted() {
    let check = ReloadCheck()
    for seconds in [42, 0.5] {
      check.send(#"{"jsonrpc":"2.0","id":1,"method":"advanceClock","params":{"seconds":\#(seconds)}}"#, from: 0)
      XCTAssertNil(check.mismatch())
    }
  }
}
