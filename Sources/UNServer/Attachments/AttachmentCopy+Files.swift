import Foundation
import JSONRPC

extension AttachmentCopy {
  /// Copies one source into `directory` within the limits: the file is opened as the
  /// caller, checked through its descriptor, and its bytes (never a link) are written to
  /// a new file of the daemon's, 0600.  Returns the new file's name; on any failure
  /// nothing of it is left.
  mutating func copy(_ source: AttachmentSource, _ task: AttachmentTask, into directory: Int32, used: inout Int)
    -> Result<String, RPCError>
  {
    let input: Int32
    switch open(source, as: task.caller) {
    case .success(let fd): input = fd
    case .failure(let error): return .failure(error)
    }
    defer { close(input) }
    var info = stat()
    guard fstat(input, &info) == 0 else {
      return .failure(.invalidParams(field: source.field, "\(source.display): \(String(cString: strerror(errno)))"))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return .failure(.invalidParams(field: source.field, "\(source.display) is not a regular file"))
    }
    let budget = task.maxAppBytes - used
    if let error = Self.limit(Int(info.st_size), source, task, budget: budget, used: used) { return .failure(error) }
    let name = UUID().uuidString.lowercased() + (source.fileExtension.isEmpty ? "" : "." + source.fileExtension)
    let output = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard output >= 0 else {
      return .failure(.stateNotWritable(directory: task.directory, String(cString: strerror(errno))))
    }
    var result = Result<String, RPCError>.success(name)
    if fchmod(output, 0o600) != 0 {
      result = .failure(.stateNotWritable(directory: task.directory, String(cString: strerror(errno))))
    } else if let error = pump(input, to: output, source, task, budget: budget, used: &used) {
      result = .failure(error)
    } else if task.sync, fsync(output) != 0 {
      result = .failure(.stateNotWritable(directory: task.directory, String(cString: strerror(errno))))
    }
    // close reports a deferred write error on some file systems (NFS).
    if close(output) != 0, case .success = result {
      result = .failure(.stateNotWritable(directory: task.directory, String(cString: strerror(errno))))
    }
    if case .failure = result { unlinkat(directory, name, 0) }
    return result
  }

  /// Opens a source with the caller's rights: this thread takes the caller's identity for
  /// the `open` only.  The last component may not be a link, and the descriptor is what
  /// is then checked and read: nothing can be swapped in between.
  private mutating func open(_ source: AttachmentSource, as caller: FileIdentity?) -> Result<Int32, RPCError> {
    let who = caller ?? own
    var switched = false
    if who != own {
      switched = who.adopt()
      if !switched {
        guard takeBack() else { return .failure(.internalError("attachments cannot be copied now")) }
        // Without CAP_SETUID/CAP_SETGID a caller of the daemon's own uid is read as the
        // daemon (its own groups); anyone else would be read with rights it lacks.
        guard who.uid == own.uid else {
          return .failure(
            .invalidParams(
              field: source.field,
              "the daemon (uid \(own.uid)) cannot open files as uid \(who.uid): it runs without the "
                + "CAP_SETUID and CAP_SETGID capabilities, so it reads attachments only for clients of its own uid"))
        }
      }
    }
    let path = source.path + [0]
    let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
    let fd = path.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { Glibc.open($0.baseAddress!, flags) }
    }
    let error = errno
    // Told apart as the caller too: only what it could see for itself.
    var isLink = false
    if fd < 0, error == ELOOP {
      var info = stat()
      isLink = path.withUnsafeBufferPointer {
        $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK }
      }
    }
    if switched, !takeBack() {
      if fd >= 0 { close(fd) }
      return .failure(.internalError("attachments cannot be copied now"))
    }
    if fd >= 0 { return .success(fd) }
    return .failure(Self.openError(error, isLink: isLink, source, uid: who.uid))
  }

  /// The thread's own identity again; if that fails it copies nothing more.
  private mutating func takeBack() -> Bool {
    if own.adopt() { return true }
    broken = true
    return false
  }

  /// Why a source could not be opened.  Whatever the caller cannot reach reads the same,
  /// whether or not it exists.
  static func openError(_ error: Int32, isLink: Bool, _ source: AttachmentSource, uid: UInt32) -> RPCError {
    let problem: String
    switch error {
    case ENOENT, EACCES, EPERM, ENOTDIR:
      problem = "\(source.display) is not a file uid \(uid) can read (it does not exist, or uid \(uid) may not read it)"
    case ELOOP:
      problem =
        isLink
        ? "\(source.display) is a symbolic link; name the file itself"
        : "\(source.display): too many levels of symbolic links"
    case ENXIO, ENODEV, EOPNOTSUPP: problem = "\(source.display) is not a regular file"
    case ENAMETOOLONG: problem = "the path is too long"
    case EMFILE, ENFILE, ENOMEM:
      return .internalError("attachments cannot be opened now: \(String(cString: strerror(error)))")
    default: problem = "\(source.display) cannot be opened: \(String(cString: strerror(error)))"
    }
    return .invalidParams(field: source.field, problem)
  }

  /// Copies the bytes, counting them against both limits as they come (a file may grow
  /// after its size was read).
  private mutating func pump(
    _ input: Int32, to output: Int32, _ source: AttachmentSource, _ task: AttachmentTask, budget: Int,
    used: inout Int
  ) -> RPCError? {
    var total = 0
    while true {
      let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else {
        return .invalidParams(
          field: source.field, "\(source.display) could not be read: \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      total += n
      if let error = Self.limit(total, source, task, budget: budget, used: used) { return error }
      var written = 0
      while written < n {
        let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, n - written) }
        if w < 0, errno == EINTR { continue }
        guard w > 0 else {
          return .stateNotWritable(directory: task.directory, String(cString: strerror(w < 0 ? errno : EIO)))
        }
        written += w
      }
    }
    used += total
    return nil
  }

  /// The limit `size` bytes would pass, if any.
  private static func limit(_ size: Int, _ source: AttachmentSource, _ task: AttachmentTask, budget: Int, used: Int)
    -> RPCError?
  {
    if size > task.maxBytes {
      return .limitExceeded(
        limit: "maxAttachmentBytes", value: task.maxBytes,
        "\(source.field): \(source.display) is larger than maxAttachmentBytes (\(task.maxBytes) bytes); nothing was kept"
      )
    }
    if size > budget {
      return .limitExceeded(
        limit: "maxAttachmentBytesPerApp", value: task.maxAppBytes,
        "\(source.field): the app's attachments would take more than maxAttachmentBytesPerApp "
          + "(\(task.maxAppBytes) bytes; \(used) in use); nothing was kept")
    }
    return nil
  }
}
