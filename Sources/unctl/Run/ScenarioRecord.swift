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
