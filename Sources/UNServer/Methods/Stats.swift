import JSONRPC
import UNDesktop
import UNModel

/// `stats`: counts, connections, queues and the fire-lateness histogram.
enum Stats: Method {
  static let name = "stats"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    _ = try call.params(allowed: [])
    let center = call.center
    var pending = 0
    var delivered = 0
    var queued = 0
    for app in center.apps.values {
      pending += app.pending.count
      delivered += app.delivered.count
      queued += app.queuedResponses.count
    }
    let m = call.metrics
    var buckets: [JSONMember] = []
    for (i, bound) in Metrics.latenessBounds.enumerated() {
      buckets.append(JSONMember("le\(bound)ms", .int(m.latenessCounts[i])))
    }
    buckets.append(JSONMember("gt\(Metrics.latenessBounds.last!)ms", .int(m.latenessCounts.last!)))
    return .object([
      "now": ModelEncoding.date(center.clock.now),
      "clock": .string(center.clock.isManual ? "manual" : "real"),
      "apps": .int(center.apps.count),
      "pending": .int(pending),
      "delivered": .int(delivered),
      "deliveredDropped": .int(center.deliveredDropped),
      "queuedResponses": .int(queued),
      "openResponses": .int(center.openResponses.count),
      "events": .int(Int(center.history.lastSequence)),
      "connections": .int(m.connections),
      "connectionsAccepted": .int(m.connectionsAccepted),
      "requests": .int(m.requests),
      "waiting": .int(m.waits),
      "pausedConnections": .int(m.pausedConnections),
      "desktop": desktopCounters(m.desktop?.counters ?? DesktopCounters()),
      "state": state(call),
      "fireLateness": .object([
        "firings": .int(m.firings), "maxMs": .int(Int(m.latenessMax)), "buckets": .object(buckets),
      ]),
      "limits": .object([
        "maxMessageBytes": .int(call.configuration.maxMessageBytes),
        "maxConnections": .int(call.configuration.maxConnections),
        "maxBatch": .int(call.configuration.maxBatch),
        "outboundSoftLimit": .int(call.configuration.outboundSoftLimit),
        "outboundHardLimit": .int(call.configuration.outboundHardLimit),
        "maxPayloadBytes": .int(RemotePayload.maxBytes),
        "maxAttachmentBytes": .int(call.configuration.maxAttachmentBytes),
        "maxAttachmentBytesPerApp": .int(call.configuration.maxAttachmentBytesPerApp),
        "maxNestingDepth": .int(call.configuration.maxNestingDepth),
        "maxPendingPerApp": .int(center.configuration.effectivePendingLimit),
        "maxDeliveredPerApp": .int(center.configuration.maxDeliveredPerApp),
        "maxCategoriesPerApp": .int(center.configuration.maxCategoriesPerApp),
        "maxActionsPerCategory": .int(center.configuration.maxActionsPerCategory),
        "eventHistoryPerApp": .int(center.configuration.eventHistoryPerApp),
        "maxFiringsPerAdvance": .int(center.configuration.maxFiringsPerAdvance),
      ]),
    ])
  }

  /// `--state`: `{directory, writable}`, with `error` and `since` while the directory
  /// refuses writes; null without `--state`.
  static func state(_ call: Call) -> JSONValue {
    guard let directory = call.configuration.stateDirectory else { return .null }
    var m = [JSONMember("directory", .string(directory))]
    if let notWritable = call.dispatcher.notWritable {
      m.append(JSONMember("writable", .bool(false)))
      m.append(JSONMember("error", .string(notWritable.reason)))
      m.append(JSONMember("since", ModelEncoding.date(notWritable.since)))
    } else {
      m.append(JSONMember("writable", .bool(true)))
    }
    return .object(m)
  }

  /// `stats.desktop`: `{connected, shown, closed, answered, failed}`.
  static func desktopCounters(_ d: DesktopCounters) -> JSONValue {
    .object([
      "connected": .bool(d.connected), "shown": .int(d.shown), "closed": .int(d.closed),
      "answered": .int(d.answered), "failed": .int(d.failed),
    ])
  }
}
