import UNModel

/// Where the stored event history is: in runs, one row per app per batch holding that
/// batch's events of the app (`Persistence.Table.eventRuns`, numbered by the run's first
/// event), rather than a row per event.  A `scheduleLocal` then costs the store its
/// pending row and a share of one run row, instead of an event row inserted and, once
/// the event has left the history, deleted again.
///
/// A run's row goes once none of its events is in the history any more.  An app's
/// events leave its history oldest first (`EventHistory`'s bound), so each event leaving
/// is one fewer live event in the app's oldest run that still has any; `reset` drops
/// every run of the app.  Rows of runs that still hold some live events also hold
/// events that left: a restart reads them and the history's bound drops them again,
/// since a run keeps events that left only while the app's history is full.
///
/// Loop-confined: updated where the batches are encoded (`BatchRows`).
struct EventRuns {
  struct Run: Equatable {
    /// The row's number: `StateCodec.eventNumberBase` + the run's first event.
    var number: UInt64
    /// Its events still in the history.
    var live: Int
  }

  /// One app's runs, oldest first from `head` on.
  private struct Queue {
    var runs: [Run] = []
    var head = 0
  }

  /// By the app id's exact bytes.
  private var apps: [ExactKey: Queue] = [:]

  /// A run row was written for `app` with `live` events (after every earlier one).
  mutating func added(app: String, number: UInt64, live: Int) {
    guard live > 0 else { return }
    apps[app, default: Queue()].runs.append(Run(number: number, live: live))
  }

  /// `count` of `app`'s stored events left its history, oldest first: its oldest runs
  /// with live events lose them.  Calls `gone` with the number of each run left with
  /// none (its row goes), oldest first.  One lookup of the app for all of them: after
  /// the history is full every new event pushes one out, so this runs once per batch
  /// rather than once per request.
  mutating func forgetOldest(_ count: Int, of app: String, gone: (UInt64) -> Void) {
    guard count > 0, var queue = apps.removeValue(forKey: app) else { return }
    var left = count
    while left > 0, queue.head < queue.runs.count {
      let taken = min(left, queue.runs[queue.head].live)
      queue.runs[queue.head].live -= taken
      left -= taken
      guard queue.runs[queue.head].live == 0 else { break }
      gone(queue.runs[queue.head].number)
      queue.head += 1
    }
    guard queue.head < queue.runs.count else { return }
    // Dropped runs are cut off once they are half the array, so popping stays O(1).
    if queue.head >= 64, queue.head * 2 >= queue.runs.count {
      queue.runs.removeFirst(queue.head)
      queue.head = 0
    }
    apps[app] = queue
  }

  /// `reset`: every run of `app`, whose rows go.
  mutating func removeAll(of app: String) -> [UInt64] {
    guard let queue = apps.removeValue(forKey: app) else { return [] }
    return queue.runs[queue.head...].map(\.number)
  }

  /// The runs of `app` still stored, oldest first (tests, start-up).
  func runs(of app: String) -> [Run] {
    guard let queue = apps[app] else { return [] }
    return Array(queue.runs[queue.head...])
  }
}
