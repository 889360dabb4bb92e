import Foundation
import JSONRPC

/// One piece of work for the attachment copier's thread, made on the loop by
/// `AttachmentStore`: copy a request's files into its app's directory (as the caller),
/// and look after that directory's other files.  Without sources it only sweeps (after
/// `reset`, or to remove what nothing refers to any more).
struct AttachmentTask: Sendable {
  /// Tasks are numbered as they are made; the loop settles their outcomes in that order.
  var sequence: UInt64
  /// The last task whose outcome the loop had settled when this one was made: the copies
  /// of the tasks after it are not in `referenced` yet, and count as the app's.
  var settled: UInt64
  /// The store's root and the app's directory in it (`AttachmentStore.directoryName`).
  var root: String
  var directoryName: String
  var sources: [AttachmentSource]
  /// Whose rights the sources are opened with; nil: the daemon's own (a peer whose
  /// credentials are unknown, as `Call.authorize` counts it).
  var caller: FileIdentity?
  /// Names of the copies in the directory that the app's state refers to.
  var referenced: Set<String>
  /// Remove every file nothing refers to (without `--state`: nothing durable can refer
  /// to it); with `--state` only those in `garbage` go.
  var sweepAll: Bool
  /// Files an earlier task found unreferenced, in a state now durable: removed.
  var garbage: Set<String>
  var maxBytes: Int
  var maxAppBytes: Int
  /// `--durability full`: the copies and the directory are synced before the answer.
  var sync: Bool

  var directory: String { root + "/" + directoryName }
}

/// A file to copy: the field that named it and the path it decoded to.
struct AttachmentSource: Sendable {
  var field: String
  var path: [UInt8]
  /// The path as text, for messages.
  var display: String { String(decoding: path, as: UTF8.self) }
  var fileExtension: String { AttachmentURL.fileExtension(path) }
}

/// What a task did.
struct AttachmentOutcome: Sendable {
  var sequence: UInt64
  var directory: String
  /// The copies' paths, one per source in order, or why none was kept.
  var copies: Result<[String], RPCError>
  /// Files nothing refers to, left in place (`AttachmentTask.sweepAll` false).
  var unreferenced: [String]
}

/// The work itself, on the copier's thread (`AttachmentCopier`), or on the caller's for a
/// store without a loop.  Every file operation on the store's directories happens here,
/// one task at a time: a copy and a sweep never overlap.
struct AttachmentCopy {
  /// The thread's own identity, taken back after each open as a caller.
  let own = FileIdentity.currentThread()
  /// Copies made by tasks the loop had not settled yet: `(task, directory, name)`.
  var made: [(sequence: UInt64, directory: String, name: String)] = []
  /// Set if the thread could not take its own identity back: from then on it refuses
  /// every copy rather than create files as someone else.
  var broken = false
  /// Reused for every copy.
  var buffer = [UInt8](repeating: 0, count: 64 * 1024)

  mutating func perform(_ task: AttachmentTask) -> AttachmentOutcome {
    made.removeAll { $0.sequence <= task.settled }
    var outcome = AttachmentOutcome(
      sequence: task.sequence, directory: task.directory, copies: .success([]), unreferenced: [])
    guard !broken else {
      outcome.copies = .failure(.internalError("attachments cannot be copied: the copier lost its identity"))
      return outcome
    }
    let create = !task.sources.isEmpty
    let root: Int32
    let directory: Int32
    do throws(RPCError) {
      guard let r = try Self.openDirectory(AT_FDCWD, task.root, create: create, shown: task.root) else {
        return outcome
      }
      root = r
      guard let d = try Self.openDirectory(root, task.directoryName, create: create, shown: task.directory) else {
        close(root)
        return outcome
      }
      directory = d
    } catch {
      outcome.copies = .failure(error)
      return outcome
    }
    defer {
      close(directory)
      close(root)
    }
    var used = sweep(task, directory, &outcome)
    var copies: [String] = []
    for source in task.sources {
      switch copy(source, task, into: directory, used: &used) {
      case .success(let name):
        copies.append(name)
        made.append((task.sequence, task.directory, name))
      case .failure(let error):
        undo(copies, in: directory, task)
        outcome.copies = .failure(error)
        return outcome
      }
    }
    if task.sync, !copies.isEmpty, fsync(directory) != 0 {
      let error = RPCError.stateNotWritable(directory: task.directory, String(cString: strerror(errno)))
      undo(copies, in: directory, task)
      outcome.copies = .failure(error)
      return outcome
    }
    outcome.copies = .success(copies.map { task.directory + "/" + $0 })
    if !create, Self.isEmpty(directory) { unlinkat(root, task.directoryName, AT_REMOVEDIR) }
    return outcome
  }

  /// Removes this task's copies after a failure (nothing of a failed request is kept).
  private mutating func undo(_ names: [String], in directory: Int32, _ task: AttachmentTask) {
    for name in names { unlinkat(directory, name, 0) }
    made.removeAll { $0.sequence == task.sequence }
  }

  /// Goes through the app's files: removes what nothing refers to (all of it, or what is
  /// durably garbage) and returns the bytes of the others, the app's share of the store.
  private func sweep(_ task: AttachmentTask, _ directory: Int32, _ outcome: inout AttachmentOutcome) -> Int {
    var used = 0
    for name in Self.names(in: directory) {
      var info = stat()
      guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      let inFlight = made.contains { $0.directory == task.directory && $0.name == name }
      if inFlight || task.referenced.contains(name) {
        used += Int(info.st_size)
      } else if task.sweepAll || task.garbage.contains(name) {
        if unlinkat(directory, name, info.st_mode & S_IFMT == S_IFDIR ? AT_REMOVEDIR : 0) != 0 {
          outcome.unreferenced.append(name)
        }
      } else {
        outcome.unreferenced.append(name)
      }
    }
    return used
  }

  /// Removes the copies of a request that was not kept (its connection went away, or the
  /// center refused it), and forgets them.
  mutating func remove(_ paths: [String], sequence: UInt64) {
    for path in paths { unlink(path) }
    made.removeAll { $0.sequence == sequence }
  }
}
