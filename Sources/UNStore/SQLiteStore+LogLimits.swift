extension SQLiteStore {
  /// When the write-ahead log is copied back into the database: by the checkpointer's
  /// passes, and by the writer itself when the passes cannot finish (`maintain`).
  public struct LogLimits: Sendable {
    /// A pass is asked of the checkpointer once the log holds this many pages (SQLite's
    /// own threshold) ...
    public var checkpointPages = 1000
    /// ... and the writer finishes the copy itself once the log has grown past this many,
    /// between two commits, as soon as no pass is in progress.  Each catch-up holds back
    /// the commits while it copies what is left and syncs both files: with a low
    /// threshold that happened so often under load that it took a large part of the
    /// writer's time (see BENCHMARKS.md).
    public var catchUpPages = 8000
    /// Past this many, the writer waits for a pass in progress rather than let the log
    /// grow further: the bound of the log (~64 MiB at the defaults).
    public var catchUpWaitPages: Int { 2 * catchUpPages }

    public init() {}
    public init(checkpointPages: Int, catchUpPages: Int) {
      self.checkpointPages = checkpointPages
      self.catchUpPages = catchUpPages
    }
  }
}
