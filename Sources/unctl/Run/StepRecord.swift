import JSONRPC

/// One step of a scenario and what came of it.
struct StepRecord: Sendable {
  enum Status: String, Sendable {
    case passed, failed
    /// After a failure the remaining steps are not run; the report still lists them.
    case notRun
  }

  /// 1-based, as in the text output.
  var number: Int
  var label: String
  /// The step as written in the file.
  var step: JSONValue
  var status: Status = .notRun
  /// The manual clock after the step.
  var clock: String
  /// A call's `{"result": ...}` or `{"error": ...}`, an advance's result, or the
  /// callback an `expect*` step matched.
  var actual: JSONValue?
  var failure: Failure?
  /// Callbacks that reached the scenario's connections while the step ran.
  var callbacks: [Delivery] = []
  /// The apps' delivered notifications and badges after the step, when they changed.
  var screens: [AppScreen]?

  /// Why a step failed, with the two values to show side by side.
  struct Failure: Sendable {
    var message: String
    var expected: JSONValue?
    var actual: JSONValue?
  }
}

/// A callback (JSON-RPC notification from the daemon) as one alias received it.
struct Delivery: Sendable {
  var alias: String
  /// The app the alias speaks for (the alias itself when it names none).
  var appId: String
  var method: String
  var params: JSONValue
}

/// One app's notification list as the phone would show it: thread groups with their
/// summaries (`listDelivered {grouped: true}`) and the badge (`getBadgeCount`).
struct AppScreen: Sendable, Equatable {
  var appId: String
  var badge: Int
  var groups: [JSONValue]
}
