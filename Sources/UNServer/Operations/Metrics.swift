import UNDesktop

/// Counters the server keeps for `stats`: connections, waits, and how late triggers
/// fired on the real clock (a histogram, in milliseconds).
final class Metrics {
  var connections = 0
  var connectionsAccepted = 0
  var requests = 0
  var waits = 0
  /// Connections whose reading is paused by backpressure.
  var pausedConnections = 0
  /// Connections that said `watch` (events are only encoded when someone listens).
  var watchers = 0
  /// Upper bounds of the lateness buckets, in milliseconds; the last bucket is open.
  static let latenessBounds: [Int64] = [1, 2, 5, 10, 50, 100, 1000]
  var latenessCounts = [Int](repeating: 0, count: latenessBounds.count + 1)
  var latenessMax: Int64 = 0
  var firings = 0
  /// The desktop bridge, whose own counters `stats` reports (nil with `--desktop off`).
  var desktop: DesktopBridge?

  func recordLateness(milliseconds: Int64) {
    let late = max(0, milliseconds)
    firings += 1
    latenessMax = max(latenessMax, late)
    let bucket = Self.latenessBounds.firstIndex { late <= $0 } ?? Self.latenessBounds.count
    latenessCounts[bucket] += 1
  }
}
