import JSONRPC

/// An event as a line for people: `date type app identifier key=value...`.
enum EventLine {
  static let leading: Set<String> = ["type", "app", "date", "seq", "identifier"]

  static func text(_ event: JSONValue, _ out: Output) -> String {
    var parts = [
      out.dim(Output.text(event["date"])), out.bold(Output.text(event["type"])), Output.text(event["app"]),
      Output.text(event["identifier"]),
    ]
    for m in event.objectValue ?? [] where !leading.contains(m.name) {
      parts.append(out.dim(m.name + "=") + Output.text(m.value))
    }
    return parts.joined(separator: " ")
  }
}
