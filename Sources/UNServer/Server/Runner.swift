import UNModel

/// The one way anything runs against the center on the loop, as Redis's `call()` runs a
/// command and propagates what it did.  Every cause (a request, the trigger timer, a
/// presentation's expiry, a connection going away, a desktop answer, a finished
/// attachment copy) runs its center operation through `run`, which then routes the
/// effects the operation caused (`EffectRouter`: callbacks to connections, events to
/// watchers and the log, the desktop).  The durable changes it made are recorded by the
/// center as they happen (`ChangeJournal`) and handed to the store once per iteration
/// (`Committer.submit`); what the store reports back (a durable commit, the state's
/// writability) comes here too.
///
/// The parts that report a cause hold this one object (weakly where it holds them)
/// instead of a callback each.
///
/// Loop-confined, owned by `Server`.
final class Runner {
  let dispatcher: Dispatcher
  let router: EffectRouter
  let outbox: Outbox

  init(dispatcher: Dispatcher, router: EffectRouter, outbox: Outbox) {
    self.dispatcher = dispatcher
    self.router = router
    self.outbox = outbox
    router.presentations.runner = self
    outbox.connections.runner = self
    // A long run of firings routes its effects as it goes (an advance over a year).
    // Weak: the center outlives nothing here, and this holds the center.
    dispatcher.center.onEffectBacklog = { [weak self] in self?.effectBacklog() }
  }

  var center: Center { dispatcher.center }

  /// Runs one center operation and routes the effects it caused, also when it throws.
  /// Inlined: every request runs through it.
  @inline(__always)
  func run<T, E: Error>(_ operation: () throws(E) -> T) throws(E) -> T {
    defer { router.route() }
    return try operation()
  }

  /// A connection stopped being live (draining or dropped): it leaves the center, and its
  /// waits are cancelled.
  func detached(_ client: ClientConnection) {
    run { center.detach(client.state.id) }
    router.watchers.cancel(of: client)
  }

  /// In the middle of a long run of firings (`Center.onEffectBacklog`): its effects so far
  /// are routed, and the output they made is written or dropped (`Outbox.flushBacklog`).
  private func effectBacklog() {
    router.route()
    outbox.flushBacklog()
  }

  /// A commit became durable: the output held for it goes out (`Outbox.release`).
  func durable(upTo batch: UInt64, of clients: [ClientConnection]) {
    outbox.release(upTo: batch, of: clients)
  }
}
