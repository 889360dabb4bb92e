import Foundation
import UNDesktop
import UNEndpoint
import UNModel
import UNStore

/// Everything `uncenterd`'s command line decides.
public struct ServerConfiguration: Sendable {
  public static let version = "0.1.0"
  /// How long (real time) a presentation waits for the app's `completePresentation`
  /// before the options declared in `hello` apply.
  public var presentationTimeoutMilliseconds: UInt64 = 10_000

  public enum ClockMode: Sendable, Equatable {
    case real
    /// The manual clock, starting at the given instant (now when nil).
    case manual(Instant?)
  }

  public var socketPath: String?
  public var socketMode: UInt32 = 0o600
  /// Group (name or number) given the socket file after bind, for `--socket-mode 0660`.
  public var socketGroup: String?
  public var maxMessageBytes = 1 << 20
  public var maxNestingDepth = 512
  /// Connections served at once; more are answered with -32006 and closed.
  public var maxConnections = 1024
  /// Entries in one batch.
  public var maxBatch = 1000
  /// Bytes of one attachment's file (10 MiB, Apple's limit for an image attachment) ...
  public var maxAttachmentBytes = 10 << 20
  /// ... and of all the copies one app's notifications refer to at once.
  public var maxAttachmentBytesPerApp = 100 << 20
  /// Bytes waiting to be written to one connection before its requests are no longer
  /// read (it must read its answers first) ...
  public var outboundSoftLimit = 4 << 20
  /// ... and before it is disconnected (a client that never reads cannot grow memory).
  public var outboundHardLimit = 64 << 20
  public var clock = ClockMode.real
  public var center = CenterConfiguration()
  public var logLevel = LogLevel.info
  /// `--busy-poll`: how long the loop polls awake after input from one or two
  /// connections (`BusyPoll`); 0 turns it off.
  public var busyPollMicroseconds = 100
  /// `--state DIR`: keep the state in SQLite there (memory only when nil).
  public var stateDirectory: String?
  public var durability = SQLiteStore.Durability.normal
  /// `--state-reserve BYTES`: room set aside in the state directory for the commit that
  /// meets a full disk (`DiskReserve`); 0 for none.
  public var stateReserveBytes = 1 << 20
  /// The daemon's own uid: its peers with this uid may use every app.
  public var daemonUID: UInt32 = getuid()
  /// `--desktop`: show banners on the session bus's notification server (README.md, "On the
  /// desktop").
  public var desktop = DesktopMode.off
  /// `--desktop-bus ADDRESS`: that bus instead of the session bus.
  public var desktopBus: String?

  public init() {}
}

/// Log levels, most verbose first.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
  case debug, info, warn, error

  public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rank < b.rank }

  /// Position in severity order (the loop compares levels for every event it logs).
  private var rank: Int {
    switch self {
    case .debug: 0
    case .info: 1
    case .warn: 2
    case .error: 3
    }
  }
}
