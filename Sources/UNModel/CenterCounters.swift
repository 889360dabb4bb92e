/// The numbers the center hands out and keeps between runs: each names what it counts
/// (`mod-3`, `resp-12`, a delivery's order).  Stored in the globals row: the center
/// records a change of any of them with one observer (`Center.counters`), so a new
/// counter here is durable without a mark of its own (`ChangeJournal`).
struct CenterCounters: Equatable {
  /// Deliveries, in order (a delivered notification's `sequence`).
  var delivery: UInt64 = 0
  /// `resp-N` response ids.
  var response: UInt64 = 0
  /// `push-N` ids of pushes sent without one.
  var push: UInt64 = 0
  /// `mod-N` ids of pushes waiting for a service extension.
  var modification: UInt64 = 0
}

/// The center's counters that are not stored: they start again at zero with each run.
/// Apart from `CenterCounters`, whose every change is recorded for the store.
struct UnstoredCounters {
  /// `pres-N` ids of presentations waiting for an app's answer (they end with the run).
  var presentation: UInt64 = 0
  /// Delivered notifications removed because an app's list was full (`stats`).
  var deliveredDropped = 0
}
