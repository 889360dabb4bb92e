import Foundation
import JSONRPC
import UNModel
import UVLoop

/// The daemon's copies of notification attachments.  iOS moves an attachment's file into
/// its own data store when the request is added, so the app may delete its file at once;
/// this does the same: `<state dir>/attachments/<app>/<uuid>.<ext>`, or a private
/// temporary directory (removed at exit) without `--state`.  Requests and delivered
/// notifications list the copy's `file://` URL.
///
/// A client's file is opened with the client's rights, never the daemon's, on the
/// copier's own thread (`AttachmentCopier`, `AttachmentCopy`); the request is kept (the
/// center changed, here on the loop) only once its copies are made.  Copies nothing
/// refers to any more (a request replaced or removed, a notification removed, `reset`)
/// are removed; with `--state` only once the change that let go of them is durable, so a
/// restart never finds a kept request without its file.
///
/// Loop-confined, owned by the dispatcher.  Without `start` (the dispatcher's unit tests,
/// which have no loop) the work is done on the calling thread at once.
final class AttachmentStore {
  let configuration: ServerConfiguration
  let center: Center
  var copier: AttachmentCopier?
  private var wakeup: LoopWakeup?
  var timer: LoopTimer?
  private var loop: EventLoop?
  /// With `--state`: commit numbers, to remove only what is durably unreferenced.
  var order: OutputGate?
  /// Set at shutdown: no more work is taken.
  private(set) var closed = false
  /// The work of a store without a loop, done at once.
  var inline: AttachmentCopy?
  var nextSequence: UInt64 = 1
  /// The last task whose outcome was settled here (outcomes come in task order).
  var settled: UInt64 = 0
  /// Tasks whose outcome has not come back.
  var waiting: [UInt64: Waiting] = [:]
  /// `--state`: per app (by its exact bytes), the files found unreferenced and the
  /// commit after which that is durable.
  var garbage: [ExactKey: [String: UInt64]] = [:]
  /// Looks for durable garbage a few more times after an outcome found some.
  var checksLeft = 0

  struct Waiting {
    var app: String
    /// The commit that makes the state the task saw durable.
    var commit: UInt64
    /// Garbage it finds is looked for again (not for the sweeps of that garbage).
    var retry: Bool
    var done: ((AttachmentOutcome) -> Void)?
  }

  init(configuration: ServerConfiguration, center: Center) {
    self.configuration = configuration
    self.center = center
  }

  /// The private directory used without `--state`, made on first use.
  static let privateDirectory: String = {
    var template = Array((NSTemporaryDirectory() + "/uncenterd-attachments-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    let path = made.map { String(cString: $0) } ?? NSTemporaryDirectory() + "/uncenterd-attachments-\(getpid())"
    atexit { try? FileManager.default.removeItem(atPath: AttachmentStore.privateDirectory) }
    return path
  }()

  /// Where the copies are, as an absolute path (the `file://` URLs are absolute).
  var root: String {
    guard let state = configuration.stateDirectory else { return Self.privateDirectory }
    let absolute = state.hasPrefix("/") ? state : FileManager.default.currentDirectoryPath + "/" + state
    return absolute + "/attachments"
  }

  /// An app id as one safe path component: bytes outside `[A-Za-z0-9._-]` (`%` and NUL
  /// among them) as `%XX`, and `.`, `..` and the empty id prefixed with a lone `%`, which
  /// no escape produces: distinct app ids never share a directory.
  static func directoryName(_ app: String) -> String {
    var out = ""
    for b in app.utf8 {
      switch b {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
        out.append(Character(Unicode.Scalar(b)))
      default:
        out += String(format: "%%%02X", b)
      }
    }
    return out == "." || out == ".." || out.isEmpty ? "%" + out : out
  }

  /// The longest directory name a Linux file system takes.
  static let maxNameBytes = 255

  /// The files a content's attachments name, checked as far as that needs no file: each
  /// URL must be a local `file:` URL of an absolute path (else `-32602` naming
  /// `<path>.attachments[i].url`).  Empty when there are none.
  static func sources(_ content: Content, app: String, path: String = "content") throws(RPCError)
    -> [AttachmentSource]
  {
    guard !content.attachments.isEmpty else { return [] }
    let name = directoryName(app)
    guard name.utf8.count <= maxNameBytes else {
      throw .invalidParams(
        field: path + ".attachments",
        "the app id is too long for the attachment store (its directory name would be \(name.utf8.count) bytes, "
          + "at most \(maxNameBytes))")
    }
    var out: [AttachmentSource] = []
    for (i, attachment) in content.attachments.enumerated() {
      let field = "\(path).attachments[\(i)].url"
      do {
        out.append(AttachmentSource(field: field, path: try AttachmentURL.path(attachment.url)))
      } catch {
        throw .invalidParams(field: field, error.message(attachment.url))
      }
    }
    return out
  }

  /// From now on the work runs on the copier's thread (started with the first task) and
  /// outcomes come back on `loop`; with `order` (`--state`) unreferenced copies wait for
  /// their change to be durable.
  func start(loop: EventLoop, order: OutputGate?) {
    self.loop = loop
    self.order = order
  }

  /// The copier, started on first use: a daemon whose clients send no attachment has no
  /// thread for them.  Nil without a loop (the work is then done inline).
  func startedCopier() throws -> AttachmentCopier? {
    if let copier { return copier }
    guard let loop, !closed else { return nil }
    let wakeup = try LoopWakeup(loop: loop) { [unowned self] in self.outcomesArrived() }
    // Serving keeps the loop alive; this must not keep it from ending at shutdown.
    wakeup.keepsLoopAlive = false
    let timer = try LoopTimer(loop: loop)
    timer.keepsLoopAlive = false
    self.wakeup = wakeup
    self.timer = timer
    let copier = AttachmentCopier(notify: { [waker = wakeup.waker] in waker.wake() })
    self.copier = copier
    return copier
  }

  /// Shutdown: no more outcomes are taken; copies of requests not answered yet are
  /// removed by the copier.
  func close() {
    closed = true
    copier?.close(waitingUpTo: 2)
    wakeup?.close()
    timer?.close()
    waiting.removeAll()
  }
}
