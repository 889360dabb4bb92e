import Foundation
import Synchronization

/// Runs scenario jobs `jobs` at a time on worker threads and hands their records back
/// in file order: `report(i, record)` is called on the calling thread for 0, 1, 2, ...
/// as soon as each one and all before it are done, so output stays one block per
/// scenario in the order the files were given, whatever order they finish in.
struct ScenarioPool {
  var jobs: Int

  private final class Board: Sendable {
    struct State {
      var next = 0
      var results: [ScenarioRecord?]
      var finished = 0
    }
    let state: Mutex<State>
    let changed = DispatchSemaphore(value: 0)
    init(count: Int) { state = Mutex(State(results: Array(repeating: nil, count: count))) }
  }

  /// Runs every job; `progress(finished, passed, failed)` after each completion (for a
  /// live line on a terminal), `report` in order.  Returns the records in order.
  func run(
    _ work: [ScenarioJob], progress: (Int, Int, Int) -> Void = { _, _, _ in },
    report: (Int, ScenarioRecord) -> Void
  ) -> [ScenarioRecord] {
    let board = Board(count: work.count)
    for _ in 0..<min(max(jobs, 1), work.count) {
      let thread = Thread {
        while true {
          let i: Int? = board.state.withLock { state in
            guard state.next < work.count else { return nil }
            defer { state.next += 1 }
            return state.next
          }
          guard let i else { return }
          let record = work[i].run()
          board.state.withLock { state in
            state.results[i] = record
            state.finished += 1
          }
          board.changed.signal()
        }
      }
      thread.start()
    }
    var reported = 0
    var passed = 0
    var failed = 0
    var records: [ScenarioRecord] = []
    while reported < work.count {
      board.changed.wait()
      let (ready, finished, results) = board.state.withLock { state in
        (state.results[reported...].prefix { $0 != nil }.count, state.finished, state.results)
      }
      passed = results.compactMap { $0 }.filter(\.passed).count
      failed = finished - passed
      for i in reported..<(reported + ready) {
        records.append(results[i]!)
        report(i, results[i]!)
      }
      reported += ready
      progress(finished, passed, failed)
    }
    return records
  }
}
