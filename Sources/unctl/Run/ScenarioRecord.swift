import JSONRPC

/// What one scenario did, kept for the closing summary, JUnit and the HTML report: its
/// steps with what came back, the callbacks each alias got, the manual clock, and what
/// each app's notification list and badge looked like as it went.
struct ScenarioRecord: Sendable {
  struct App: Sendable {
    var alias: String
    var appId: String?
    var role: String
  }

  var file: String
  var name: String
  /// The manual clock at the start (the scenario's `clock`).
  var clock: String
  var apps: [App] = []
  var steps: [StepRecord] = []
  /// One entry per failure (empty = passed); the first line of each is its headline.
  var failures: [String] = []
  var seconds: Double = 0
  /// The text block printed for this scenario (a line per step).
  var output: String = ""
  /// Ended by `--timeout`.
  var timedOut = false

  var passed: Bool { failures.isEmpty }
}

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
