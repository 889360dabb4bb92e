import Foundation

/// One logfmt line per event on stderr: `level=info event=listening socket=/run/u.sock`.
/// Values with spaces, quotes or `=` are quoted.  Lines go to a `LogSink`, whose own
/// thread writes them: the loop thread formats a line and never waits for the write, and
/// lines never interleave.
///
/// When stderr is systemd's journal stream (`$JOURNAL_STREAM` names fd 2's device and
/// inode), each line starts with a `<N>` syslog priority (`sd-daemon(3)`), so the
/// journal records warnings and errors at their level; otherwise lines are plain logfmt.
public struct Log: Sendable {
  public var level: LogLevel
  /// Prefix lines with `<N>` priorities for the journal.
  public var journal: Bool
  public let sink: LogSink

  public init(level: LogLevel, journal: Bool = Log.stderrIsJournal(), sink: LogSink = .standardError) {
    self.level = level
    self.journal = journal
    self.sink = sink
  }

  public func debug(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.debug, event, fields) }
  public func info(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.info, event, fields) }
  public func warn(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.warn, event, fields) }
  public func error(_ event: String, _ fields: KeyValuePairs<String, String> = [:]) { emit(.error, event, fields) }

  public func emit(_ at: LogLevel, _ event: String, _ fields: KeyValuePairs<String, String>) {
    emit(at, event, fields.map { ($0.key, $0.value) })
  }

  public func emit(_ at: LogLevel, _ event: String, _ fields: [(String, String)]) {
    guard var line = line(at, event) else { return }
    for (key, value) in fields { line.field(named: key, value) }
    write(line)
  }

  /// A line to fill with fields and `write`; nil when `at` is below the level (then
  /// nothing is formatted at all).
  public func line(_ at: LogLevel, _ event: String) -> LogLine? {
    at >= level ? LogLine(at, event, journal: journal) : nil
  }

  /// Whether a line at `at` is written.
  public func logs(_ at: LogLevel) -> Bool { at >= level }

  /// Finishes `line` and queues it; the caller keeps its buffer for the next line.
  public func write(reusing line: inout LogLine) {
    line.finish()
    line.withBytes { sink.append($0) }
  }

  public func write(_ line: consuming LogLine) {
    line.finish()
    line.withBytes { sink.append($0) }
  }

  /// Waits until every line emitted so far is written (before the process exits).
  public func flush() { sink.flush() }

  func format(_ at: LogLevel, _ event: String, _ fields: KeyValuePairs<String, String>) -> String {
    format(at, event, fields.map { ($0.key, $0.value) })
  }

  /// The line as written, with its newline.
  func format(_ at: LogLevel, _ event: String, _ fields: [(String, String)]) -> String {
    var line = LogLine(at, event, journal: journal)
    for (k, v) in fields { line.field(named: k, v) }
    line.finish()
    return line.withBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// True when `$JOURNAL_STREAM` (`DEVICE:INODE`, set by systemd for a service whose
  /// output goes to the journal) matches `fd`: a child whose stderr was redirected
  /// elsewhere keeps plain lines even if it inherited the variable.
  public static func stderrIsJournal(
    environment: [String: String] = ProcessInfo.processInfo.environment, fd: Int32 = 2
  ) -> Bool {
    guard let value = environment["JOURNAL_STREAM"] else { return false }
    let parts = value.split(separator: ":")
    guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return false }
    return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
  }
}

extension LogLevel {
  /// syslog priority for the journal's `<N>` prefix (`sd-daemon(3)`).
  public var syslogPriority: Int {
    switch self {
    case .debug: 7
    case .info: 6
    case .warn: 4
    case .error: 3
    }
  }
}
