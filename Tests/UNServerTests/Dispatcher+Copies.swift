// Also compiled into the fuzz harness `requests` (with ReloadCheck.swift, inside its
// UNServer module, -D FUZZ_HARNESS).
import JSONRPC

#if !FUZZ_HARNESS
  @testable import UNServer
#endif

extension Dispatcher {
  /// `handle`, with a request's attachments copied before it returns: a dispatcher
  /// without a server's loop makes its copies on the calling thread, as the peer (or as
  /// the process for a peer without credentials).
  func handleCopying(_ entry: Incoming.Entry, from client: ClientState) -> Answer? {
    let first = handle(entry, from: client)
    guard case .copying(let id, let job)? = first else { return first }
    var answer: Answer?
    let caller = client.peer.map { FileIdentity(uid: $0.uid, gid: $0.gid, groups: [$0.gid]) }
    attachments.copy(
      job, caller: caller, isWanted: { true },
      done: { result in
        switch result {
        case .success(let reply): answer = id.map { self.answer(reply, id: $0) }
        case .failure(let error): answer = id.map { .error($0, error) }
        }
      })
    return answer
  }
}
