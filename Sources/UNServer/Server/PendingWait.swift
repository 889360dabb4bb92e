import JSONRPC
import UVLoop

/// A `waitFor` waiting for its event: who asked, under which id, and its timeout timer.
final class PendingWait {
  let client: ClientConnection
  let id: RequestID
  let request: WaitRequest
  let timer: LoopTimer

  init(client: ClientConnection, id: RequestID, request: WaitRequest, timer: LoopTimer) {
    self.client = client
    self.id = id
    self.request = request
    self.timer = timer
  }
}
