import Foundation

/// Scenario files and a stand-in daemon for the `unctl run` tests.
enum RunScenarioFiles {
  /// A scenario that passes: a notification scheduled, fired, presented.
  static func passing(_ app: String, name: String) -> String {
    """
    {"name": "\(name)", "clock": "2026-01-01T08:00:00Z",
     "apps": {"a": {"appId": "\(app)", "hello": {"role": "app", "foreground": true}}},
     "steps": [
       {"as": "a", "call": "scheduleLocal",
        "params": {"identifier": "n1", "content": {"title": "Hej"}, "trigger": {"type": "timeInterval", "timeInterval": 5}},
        "expect": {"result": {"scheduled": true, "nextTriggerDate": "2026-01-01T08:00:05.000Z"}}},
       {"advance": 5},
       {"expectCallback": {"to": "a", "method": "present", "params": {"notification": {"identifier": "n1"}}}}
     ]}
    """
  }

  /// A scenario whose second step expects the wrong date.
  static let failing = """
    {"name": "wrong date", "clock": "2026-01-01T08:00:00Z",
     "apps": {"a": {"appId": "com.example.fail", "hello": {"role": "app"}}},
     "steps": [
       {"as": "a", "call": "getBadgeCount", "expect": {"result": {"count": 0}}},
       {"as": "a", "call": "scheduleLocal",
        "params": {"identifier": "n1", "content": {"title": "x"}, "trigger": {"type": "timeInterval", "timeInterval": 5}},
        "expect": {"result": {"nextTriggerDate": "2026-01-01T09:00:05.000Z"}}},
       {"advance": 5}
     ]}
    """

  /// Waits long for a callback; the stand-in daemon dies (clock 2030) or freezes
  /// (clock 2031) meanwhile.
  static func waiting(clock: String, name: String) -> String {
    """
    {"name": "\(name)", "clock": "\(clock)",
     "apps": {"a": {"appId": "com.example.\(clock.prefix(4))", "hello": {"role": "app"}}},
     "steps": [
       {"expectNoCallback": {"to": "a", "within": 1.5}},
       {"as": "user", "call": "ping"},
       {"expectCallback": {"to": "a", "method": "present", "within": 60}}
     ]}
    """
  }

  /// A stand-in for uncenterd (`$UNCENTERD`): the real daemon, except that with the
  /// clock at 2030-01-01 it is killed, and at 2031-01-01 stopped (SIGSTOP: it hangs,
  /// holding its connections open), half a second after its socket appears.  `exec`
  /// keeps the pid, so what unctl started is the real daemon.
  static func standIn(real: String) -> String {
    """
    #!/bin/sh
    sock=$2
    after_start() {
      ( i=0; while [ ! -S "$sock" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; sleep 0.5; "$@" ) &
    }
    case "$*" in
      *manual=2030-01-01T00:00:00Z*) after_start sh -c "echo 'stand-in: simulated crash of the daemon' >&2; kill -KILL $$" ;;
      *manual=2031-01-01T00:00:00Z*) after_start kill -STOP $$ ;;
    esac
    exec '\(real)' "$@"
    """
  }
}
