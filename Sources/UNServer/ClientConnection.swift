import JSONRPC
import UVLoop

/// One accepted connection: its socket, framer, session state and the bytes waiting to
/// be written.  Output is gathered during a loop iteration and written once, in the
/// check phase (one write per connection per iteration).
///
/// Owned by the server on the loop thread; never shared.
final class ClientConnection {
  let stream: StreamConnection
  let state: ClientState
  var framer: Framer
  /// Encoded frames not yet handed to the socket.
  var output: [UInt8] = []
  /// Set when callbacks were queued this iteration: such connections are flushed before
  /// the others, so a callback is written before the response of the call that caused it.
  var hasCallbacks = false
  var isDirty = false
  /// No more requests will be read: flush, then close.
  var closing = false
  /// Reading paused because too many answers wait to be written (backpressure).
  var paused = false

  init(stream: StreamConnection, state: ClientState, maxMessageBytes: Int) {
    self.stream = stream
    self.state = state
    self.framer = Framer(maxMessageBytes: maxMessageBytes)
  }

  /// Read from the first bytes before the framer sees them (see `Framer.detectFraming`).
  var framing: Framing?
}
