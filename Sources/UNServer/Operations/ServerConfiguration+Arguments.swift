import UNDesktop
import UNModel
import UNStore

/// A command-line problem: the message for stderr, exit status 2.
public struct UsageError: Error, CustomStringConvertible {
  public var description: String
}

extension ServerConfiguration {
  public static let usage = """
    usage: uncenterd [options]

    A UserNotifications-style notification center for local processes: JSON-RPC 2.0
    over a Unix domain socket.

    options:
      --socket PATH             listen here (default: $UNCENTER_SOCKET, else
                                $XDG_RUNTIME_DIR/uncenterd.sock, else /tmp/uncenterd-$UID.sock)
      --socket-mode OCTAL       permissions of the socket file (default 0600)
      --socket-group GROUP      give the socket file to GROUP (name or number)
      --max-message-bytes N     largest accepted message (default 1048576)
      --clock real|manual[=T]   real time (default), or a manual clock starting at the
                                RFC 3339 instant T (default: now) moved by advanceClock
      --authorization MODE      implicit (apps start authorized, default) or ios
                                (apps start notDetermined)
      --max-pending N           pending requests per app (default 10000)
      --max-delivered N         delivered notifications kept per app (default 10000);
                                beyond it the oldest are removed, as Notification Center does
      --max-connections N       connections served at once (default 1024)
      --max-batch N             entries in one JSON-RPC batch (default 1000)
      --max-attachment-bytes N  largest attachment file copied into the store (default
                                10485760, 10 MiB)
      --max-attachment-bytes-per-app N
                                bytes of the copies one app's notifications may refer to
                                at once (default 104857600, 100 MiB)
      --busy-poll MICROSECONDS  after input from one or two connections, poll that long
                                without sleeping for their next requests (default 100;
                                0: sleep at once); it spares a client that calls one
                                request at a time the wake-up of the loop's thread
      --max-outbound-bytes N    bytes queued for a client that does not read before it is
                                disconnected (default 67108864; reading of its requests
                                pauses at a sixteenth of it)
      --ios-limits              keep only the 64 most recently added pending requests
      --state DIR               keep all state in SQLite (WAL) in DIR; without it, memory only
      --durability MODE         normal (default: survives a crash of the process) or full
                                (also survives power loss; an fsync per commit)
      --state-reserve BYTES     room set aside in the state directory (uncenter.reserve) so
                                that the commit meeting a full disk is still written
                                (default 1048576; 0: none); while the disk refuses writes,
                                changes are answered -32010 and reads go on
      --log-level LEVEL         debug, info (default: a line per event), warn or error;
                                lines are written by a thread of their own, and dropped
                                (then counted in a log_lines_dropped line) when more than
                                4 MiB wait for a slow reader
      --desktop MODE            show banners on the desktop through the session bus's
                                org.freedesktop.Notifications: off (default), freedesktop,
                                or auto (on when a session bus is reachable)
      --desktop-bus ADDRESS     the D-Bus address to use instead of $DBUS_SESSION_BUS_ADDRESS
      --version                 print the version and exit
      -h, --help                print this help and exit
    """

  /// Parses `uncenterd`'s arguments (without the program name).  `--help` and
  /// `--version` are reported through `action`.
  public static func parse(_ arguments: [String]) throws(UsageError) -> (ServerConfiguration, action: String?) {
    var config = ServerConfiguration()
    var args = arguments[...]
    func value(_ option: String, inline: String?) throws(UsageError) -> String {
      if let inline { return inline }
      guard let v = args.popFirst() else { throw UsageError(description: "\(option) needs a value") }
      return v
    }
    func number(_ option: String, _ text: String, min: Int) throws(UsageError) -> Int {
      guard let n = Int(text), n >= min else {
        throw UsageError(description: "\(option): '\(text)' is not an integer >= \(min)")
      }
      return n
    }
    while let arg = args.popFirst() {
      var name = arg
      var inline: String?
      if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "="), arg != "--clock" {
        name = String(arg[..<eq])
        inline = String(arg[arg.index(after: eq)...])
      }
      switch name {
      case "-h", "--help": return (config, "help")
      case "--version": return (config, "version")
      case "--socket": config.socketPath = try value(name, inline: inline)
      case "--socket-mode":
        let text = try value(name, inline: inline)
        guard let mode = UInt32(text, radix: 8), mode <= 0o777 else {
          throw UsageError(description: "--socket-mode: '\(text)' is not an octal mode such as 0600")
        }
        config.socketMode = mode
      case "--socket-group":
        let group = try value(name, inline: inline)
        guard !group.isEmpty else { throw UsageError(description: "--socket-group needs a group name or number") }
        config.socketGroup = group
      case "--max-message-bytes":
        config.maxMessageBytes = try number(name, try value(name, inline: inline), min: 64)
      case "--clock":
        config.clock = try parseClock(try value(name, inline: inline))
      case "--authorization":
        switch try value(name, inline: inline) {
        case "implicit": config.center.initialAuthorization = .authorized
        case "ios": config.center.initialAuthorization = .notDetermined
        case let other: throw UsageError(description: "--authorization: '\(other)' is not implicit or ios")
        }
      case "--max-delivered":
        config.center.maxDeliveredPerApp = try number(name, try value(name, inline: inline), min: 1)
      case "--max-pending":
        config.center.maxPendingPerApp = try number(name, try value(name, inline: inline), min: 1)
      case "--ios-limits": config.center.iosLimits = true
      case "--max-connections":
        config.maxConnections = try number(name, try value(name, inline: inline), min: 1)
      case "--max-batch":
        config.maxBatch = try number(name, try value(name, inline: inline), min: 1)
      case "--max-attachment-bytes":
        config.maxAttachmentBytes = try number(name, try value(name, inline: inline), min: 1)
      case "--max-attachment-bytes-per-app":
        config.maxAttachmentBytesPerApp = try number(name, try value(name, inline: inline), min: 1)
      case "--busy-poll":
        config.busyPollMicroseconds = try number(name, try value(name, inline: inline), min: 0)
      case "--max-outbound-bytes":
        config.outboundHardLimit = try number(name, try value(name, inline: inline), min: 4096)
        config.outboundSoftLimit = max(1024, config.outboundHardLimit / 16)
      case "--state": config.stateDirectory = try value(name, inline: inline)
      case "--state-reserve":
        config.stateReserveBytes = try number(name, try value(name, inline: inline), min: 0)
      case "--durability":
        let text = try value(name, inline: inline)
        guard let mode = SQLiteStore.Durability(rawValue: text) else {
          throw UsageError(description: "--durability: '\(text)' is not normal or full")
        }
        config.durability = mode
      case "--log-level":
        let text = try value(name, inline: inline)
        guard let level = LogLevel(rawValue: text) else {
          throw UsageError(description: "--log-level: '\(text)' is not debug, info, warn or error")
        }
        config.logLevel = level
      case "--desktop":
        let text = try value(name, inline: inline)
        guard let mode = DesktopMode(rawValue: text) else {
          throw UsageError(description: "--desktop: '\(text)' is not off, auto or freedesktop")
        }
        config.desktop = mode
      case "--desktop-bus":
        let address = try value(name, inline: inline)
        guard !address.isEmpty else { throw UsageError(description: "--desktop-bus needs a D-Bus address") }
        config.desktopBus = address
      default:
        throw UsageError(description: "unknown option '\(arg)'")
      }
    }
    return (config, nil)
  }

  /// `real`, `manual` or `manual=2026-01-01T08:00:00Z`.
  static func parseClock(_ text: String) throws(UsageError) -> ClockMode {
    if text == "real" { return .real }
    if text == "manual" { return .manual(nil) }
    if text.hasPrefix("manual=") {
      let start = String(text.dropFirst("manual=".count))
      guard let instant = Instant(rfc3339: start) else {
        throw UsageError(description: "--clock: '\(start)' is not an RFC 3339 date-time such as 2026-01-01T08:00:00Z")
      }
      // An offset can move a year-0 or year-9999 date out of the four-digit years in UTC,
      // which the daemon writes every date in.
      guard instant.isRFC3339 else {
        throw UsageError(
          description: "--clock: '\(start)' is outside 0000-01-01T00:00:00Z...9999-12-31T23:59:59.999Z in UTC")
      }
      return .manual(instant)
    }
    throw UsageError(description: "--clock: '\(text)' is not real, manual or manual=RFC3339")
  }
}
