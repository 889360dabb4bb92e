import Foundation
import JSONRPC
import UNModel

/// A request whose attachments must be copied before it is kept: what a method answers
/// (`Reply.copy`) after the checks that need no file.  The server copies them as the
/// caller and runs `finish` on the loop, in the connection's order.
struct AttachmentJob {
  /// The app whose directory receives the copies.
  let app: String
  let sources: [AttachmentSource]
  /// Keeps the request with the copies' `file://` URLs (one per source, in order) and
  /// returns its answer.  When it throws, nothing is kept: the copies are removed.
  let finish: ([String]) throws(RPCError) -> Reply
}

extension AttachmentStore {
  /// Copies a job's files with `caller`'s rights (nil: the daemon's own).  Once they are
  /// made, on the loop: if `isWanted()` (its connection is still there), `finish` keeps
  /// the request and `done` gets its answer; otherwise the copies are removed and `done`
  /// is not called.  A failed copy keeps nothing and `done` gets why.  Without a loop
  /// this all happens before `copy` returns.
  func copy(
    _ job: AttachmentJob, caller: FileIdentity?, isWanted: @escaping () -> Bool,
    done: @escaping (Result<Reply, RPCError>) -> Void
  ) {
    guard !closed else {
      return done(.failure(.internalError("uncenterd is stopping; the attachments were not copied")))
    }
    let task = makeTask(app: job.app, sources: job.sources, caller: caller)
    submit(task, app: job.app, retry: true) { [unowned self] outcome in
      switch outcome.copies {
      case .failure(let error):
        if isWanted() { done(.failure(error)) }
      case .success(let paths):
        guard isWanted() else { return self.discard(paths, outcome.sequence) }
        let urls = paths.map { URL(fileURLWithPath: $0).absoluteString }
        do throws(RPCError) {
          let reply = try job.finish(urls)
          // What the request replaced may have been the last to refer to older copies.
          self.sweep(job.app)
          done(.success(reply))
        } catch {
          self.discard(paths, outcome.sequence)
          done(.failure(error))
        }
      }
    }
  }

  /// Removes the app's copies nothing refers to any more (with `--state`, once that is
  /// durable): after `reset`, all of them.  Otherwise this happens with the app's next
  /// copy.
  func sweep(_ app: String) {
    guard !closed else { return }
    submit(makeTask(app: app, sources: [], caller: nil), app: app, retry: true, done: nil)
  }

  private func makeTask(app: String, sources: [AttachmentSource], caller: FileIdentity?) -> AttachmentTask {
    defer { nextSequence += 1 }
    let durable = order?.durable ?? .max
    var collect = Set<String>()
    let key = ExactKey(app)
    if let found = garbage[key] {
      for (name, commit) in found where commit <= durable { collect.insert(name) }
      garbage[key] = found.filter { !collect.contains($0.key) }
      if garbage[key]?.isEmpty == true { garbage[key] = nil }
    }
    return AttachmentTask(
      sequence: nextSequence, settled: settled, root: root, directoryName: Self.directoryName(app), sources: sources,
      caller: caller, referenced: referencedNames(app), sweepAll: order == nil, garbage: collect,
      maxBytes: configuration.maxAttachmentBytes, maxAppBytes: configuration.maxAttachmentBytesPerApp,
      sync: configuration.durability == .full)
  }

  /// Hands a task to the copier, or does it now without a loop.
  private func submit(_ task: AttachmentTask, app: String, retry: Bool, done: ((AttachmentOutcome) -> Void)?) {
    // The state this task saw is durable once the commit after the last submitted one is.
    waiting[task.sequence] = Waiting(app: app, commit: (order?.submitted ?? 0) + 1, retry: retry, done: done)
    do {
      if let copier = try startedCopier() { return copier.submit(.task(task)) }
    } catch {
      waiting[task.sequence] = nil
      done?(
        AttachmentOutcome(
          sequence: task.sequence, directory: task.directory,
          copies: .failure(.internalError("attachments cannot be copied: \(error)")), unreferenced: []))
      return
    }
    var work = inline ?? AttachmentCopy()
    let outcome = work.perform(task)
    inline = work
    settle([outcome])
  }

  /// On the loop, after the copier queued outcomes (one wake may cover several).
  func outcomesArrived() {
    guard let copier else { return }
    settle(copier.takeOutcomes())
  }

  private func settle(_ outcomes: [AttachmentOutcome]) {
    for outcome in outcomes {
      settled = max(settled, outcome.sequence)
      guard let entry = waiting.removeValue(forKey: outcome.sequence) else { continue }
      if !outcome.unreferenced.isEmpty {
        for name in outcome.unreferenced {
          let key = ExactKey(entry.app)
          garbage[key, default: [:]][name] = min(garbage[key]?[name] ?? .max, entry.commit)
        }
        if entry.retry {
          checksLeft = Self.checks
          armCheck()
        }
      }
      entry.done?(outcome)
    }
  }

  /// How often, and how far apart, garbage is looked at after an outcome found some:
  /// a commit is durable within milliseconds, and later work of the app collects what is
  /// left.
  static let checks = 20
  static let checkMilliseconds: UInt64 = 50

  private func armCheck() {
    guard let timer, checksLeft > 0, !closed else { return }
    try? timer.start(afterMilliseconds: Self.checkMilliseconds) { [unowned self] in self.checkGarbage() }
  }

  /// Sweeps the apps whose garbage is durably unreferenced now.
  private func checkGarbage() {
    checksLeft -= 1
    let durable = order?.durable ?? .max
    let ready = garbage.filter { $0.value.values.contains { $0 <= durable } }.keys
    for key in ready {
      submit(makeTask(app: key.string, sources: [], caller: nil), app: key.string, retry: false, done: nil)
    }
    if !garbage.isEmpty { armCheck() }
  }

  /// Removes the copies of a request that was not kept.
  private func discard(_ paths: [String], _ sequence: UInt64) {
    if let copier {
      copier.submit(.discard(paths: paths, sequence: sequence))
    } else {
      var work = inline ?? AttachmentCopy()
      work.remove(paths, sequence: sequence)
      inline = work
    }
  }

  /// The names of the app's copies that anything the center keeps refers to: pending
  /// and delivered requests, queued responses, and the notifications waiting for an
  /// extension or a presentation decision.
  func referencedNames(_ app: String) -> Set<String> {
    var names = Set<String>()
    func add(_ content: Content) {
      for a in content.attachments { names.insert(String(AttachmentURL.lastComponent(a.url))) }
    }
    if let state = center.apps[app] {
      for pending in state.pending.unordered { add(pending.request.content) }
      for delivered in state.delivered.values { add(delivered.request.content) }
      for (response, _) in state.queuedResponses { add(response.notification.request.content) }
    }
    for m in center.pendingModifications.values where m.app.exactlyEquals(app) { add(m.request.content) }
    for p in center.pendingPresentations.values where p.app.exactlyEquals(app) { add(p.notification.request.content) }
    for e in center.pendingExtensionResponses.values where e.app.exactlyEquals(app) {
      add(e.prepared.response.notification.request.content)
    }
    return names
  }
}
