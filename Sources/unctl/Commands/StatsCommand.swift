import JSONRPC

/// `stats`: the daemon's counters; `--prometheus` for the text exposition format.
enum StatsCommand: Command {
  static let name = "stats"
  static let flags = ["--prometheus"]
  static let usage = """
    usage: unctl stats [--prometheus]

    The daemon's counters: apps, pending and delivered notifications, queues,
    connections, requests, waits, the fire-lateness histogram, the limits, and with
    --state whether the state directory takes writes.
    --prometheus prints them in Prometheus' text exposition format (for a textfile
    collector or a scrape wrapper).
    """

  static func run(_ arguments: [String], _ context: Context) throws -> Int32 {
    let parsed = try ParsedArguments.parse(arguments, for: Self.self)
    _ = try parsed.operands(0...0, "")
    let result = try context.call("stats", nil)
    if parsed.has("--prometheus") {
      print(prometheus(result), terminator: "")
      return 0
    }
    context.output.result(result) { context.output.keyValues(result) }
    return 0
  }

  /// Gauges and counters named `uncenter_*`; the lateness histogram as a Prometheus
  /// histogram with cumulative `le` buckets in seconds.
  static func prometheus(_ stats: JSONValue) -> String {
    var out = ""
    func metric(_ name: String, _ type: String, _ help: String, _ value: JSONValue?) {
      guard let v = value, case .number(let text) = v else { return }
      out += "# HELP uncenter_\(name) \(help)\n# TYPE uncenter_\(name) \(type)\nuncenter_\(name) \(text)\n"
    }
    metric("apps", "gauge", "Apps known to the daemon.", stats["apps"])
    metric("pending_requests", "gauge", "Pending notification requests.", stats["pending"])
    metric("delivered_notifications", "gauge", "Delivered notifications kept.", stats["delivered"])
    metric("queued_responses", "gauge", "Responses waiting for an app connection.", stats["queuedResponses"])
    metric("open_responses", "gauge", "Background actions waiting for completeResponse.", stats["openResponses"])
    metric("events_total", "counter", "Events recorded.", stats["events"])
    metric("connections", "gauge", "Open client connections.", stats["connections"])
    metric("connections_accepted_total", "counter", "Connections accepted.", stats["connectionsAccepted"])
    metric("requests_total", "counter", "JSON-RPC requests handled.", stats["requests"])
    metric("waits", "gauge", "waitFor calls waiting.", stats["waiting"])
    if let writable = stats["state"]?["writable"]?.boolValue {
      metric(
        "state_writable", "gauge", "1 while the state directory takes writes, 0 while changes are refused.",
        .number(writable ? "1" : "0"))
    }
    if let lateness = stats["fireLateness"], let buckets = lateness["buckets"]?.objectValue {
      out += "# HELP uncenter_fire_lateness_seconds How late triggers fired on the real clock.\n"
      out += "# TYPE uncenter_fire_lateness_seconds histogram\n"
      var cumulative = 0
      for member in buckets {
        cumulative += member.value.intValue ?? 0
        let le: String
        if member.name.hasPrefix("le"), let ms = Double(member.name.dropFirst(2).dropLast(2)) {
          le = String(ms / 1000)
        } else {
          le = "+Inf"
        }
        out += "uncenter_fire_lateness_seconds_bucket{le=\"\(le)\"} \(cumulative)\n"
      }
      out += "uncenter_fire_lateness_seconds_count \(lateness["firings"]?.intValue ?? cumulative)\n"
    }
    return out
  }
}
