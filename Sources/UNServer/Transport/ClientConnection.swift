import JSONRPC
import UVLoop

/// One accepted connection: its socket, framer, session state, its condition, and the
/// bytes waiting to be written.  Output is gathered during a loop iteration and written
/// once, in the check phase (one write per connection per iteration); with `--state`,
/// output whose changes are not yet committed waits in `held` (see `OutputGate`).
///
/// Its condition changes only in `Connections` (one function per transition).
/// Owned by the server on the loop thread; never shared.
final class ClientConnection {
  let stream: StreamConnection
  let state: ClientState
  var framer: Framer
  /// Read from the first bytes before the framer sees them (see `Framer.detectFraming`).
  var framing: Framing?
  /// Encoded frames not yet handed to the socket: with `--state`, first the output of
  /// earlier iterations that waits for its commit (`held` says where each part ends),
  /// then this iteration's.
  var output: [UInt8] = []
  /// Which front parts of `output` wait for which commit (see `OutputGate`).
  var held = HeldOutput()
  /// Set by `Connections` only.
  fileprivate(set) var condition: Condition = .reading
  /// Set when callbacks were queued this iteration: such connections are flushed before
  /// the others, so a callback is written before the response of the call that caused it.
  var hasCallbacks = false
  var isDirty = false
  /// Set while one of its requests waits for its attachments to be copied: it is not
  /// read, and what was read after that request waits here (`Server+Attachments.swift`).
  var parked: ParkedInput?

  init(stream: StreamConnection, state: ClientState, maxMessageBytes: Int) {
    self.stream = stream
    self.state = state
    self.framer = Framer(maxMessageBytes: maxMessageBytes)
  }

  /// The bytes a framing puts around one message for this connection.
  var framingOrDefault: Framing { framing ?? .newlineDelimited }

  /// What a connection is doing.  Transitions (each one function of `Connections`):
  ///
  ///     reading  --pause-->   paused      its unsent answers passed outboundSoftLimit
  ///     paused   --resume-->  reading     the socket drained them
  ///     reading  --drain-->   draining    end of stream, read error, a fatal framing
  ///     paused   --drain-->   draining    error, or the daemon stopping
  ///     draining --finish-->  closed      what it is owed was written: shut down, close
  ///     any      --drop-->    closed      write error, outboundHardLimit, store failure,
  ///                                       or the shutdown deadline
  ///
  /// Requests are handled and callbacks sent only while `reading` or `paused`.
  enum Condition: Equatable {
    case reading
    /// Backpressure: reading stopped until the socket's write queue drains.
    case paused
    /// No more reading; detached from the center; its output is still written.
    case draining
    /// Removed from the server; the stream is closing.
    case closed

    /// Requests are handled and callbacks sent.
    var isLive: Bool { self == .reading || self == .paused }

    func canMove(to next: Condition) -> Bool {
      switch (self, next) {
      case (.reading, .paused), (.paused, .reading): return true
      case (.reading, .draining), (.paused, .draining): return true
      case (.draining, .closed), (.reading, .closed), (.paused, .closed): return true
      default: return false
      }
    }
  }
}

extension ClientConnection {
  /// The one setter of `condition`, for `Connections`' transitions.
  func move(to next: Condition) {
    assert(condition.canMove(to: next), "connection \(state.id): \(condition) -> \(next)")
    condition = next
  }
}
