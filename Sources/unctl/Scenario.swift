import JSONRPC

/// A scenario file (README.md, "Scenarios"): apps with their hello, and steps that call
/// methods, move the manual clock and assert on callbacks and events.
struct Scenario {
  struct App {
    var alias: String
    var appId: String?
    var authorization: String?
    var hello: JSONValue
  }

  var name: String
  var clock: String
  var apps: [App]
  var steps: [JSONValue]

  init(_ json: JSONValue, file: String) throws {
    guard case .object = json else { throw ScenarioError("\(file): a scenario is a JSON object") }
    name = json["name"]?.stringValue ?? file
    clock = json["clock"]?.stringValue ?? "2026-01-01T00:00:00Z"
    apps = []
    if let members = json["apps"]?.objectValue {
      for m in members {
        guard case .object = m.value else { throw ScenarioError("\(file): apps.\(m.name) must be an object") }
        apps.append(
          App(
            alias: m.name, appId: m.value["appId"]?.stringValue, authorization: m.value["authorization"]?.stringValue,
            hello: m.value["hello"] ?? .object([])))
      }
    }
    guard let steps = json["steps"]?.arrayValue else { throw ScenarioError("\(file): steps must be an array") }
    self.steps = steps
  }
}
