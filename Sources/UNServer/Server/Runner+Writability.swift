import JSONRPC
import UNModel
import UNStore

/// The state directory stops taking writes (a full or failing disk) and takes them again:
/// one log line and one event for each change of condition, never one per request.
/// While it lasts, clients' changes are refused with -32010 (`Dispatcher.notWritable`)
/// and everything else goes on; `Committer` retries the writes and reports the end.
extension Server {
  /// The daemon's own events (no app, not in the history), beside the center's
  /// `Event.Kind`s.
  enum DaemonEvent: String, CaseIterable {
    case stateNotWritable, stateWritable
  }
}

extension Runner {
  func writabilityChanged(_ failure: StoreError?) {
    let configuration = dispatcher.configuration
    let log = dispatcher.log
    let directory = configuration.stateDirectory ?? ""
    let now = center.clock.now
    if let failure {
      let reason = "\(failure)"
      dispatcher.notWritable = Dispatcher.NotWritable(
        error: .stateNotWritable(directory: directory, reason), reason: reason, since: now)
      log.warn("state_not_writable", ["dir": directory, "error": reason])
      router.watchers.publishDaemonEvent(
        .stateNotWritable, at: now,
        [JSONMember("directory", .string(directory)), JSONMember("error", .string(reason))])
    } else {
      let since = dispatcher.notWritable?.since
      dispatcher.notWritable = nil
      log.info("state_writable", ["dir": directory])
      var fields = [JSONMember("directory", .string(directory))]
      if let since { fields.append(JSONMember("since", ModelEncoding.date(since))) }
      router.watchers.publishDaemonEvent(.stateWritable, at: now, fields)
    }
  }
}
