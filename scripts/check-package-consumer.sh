#!/usr/bin/env bash
# check-package-consumer.sh [UNCENTERD [UNCTL]]
#
# A fresh package that depends on this one by version, as an app author would write it:
# the committed HEAD is cloned into a temporary directory and tagged 0.1.0, and a new
# package with `.package(url: "file://<clone>", from: "0.1.0")` builds an iOS-style
# program (`import UserNotifications`, `UNUserNotificationCenter.current()`,
# requestAuthorization, add with a UNTimeIntervalNotificationTrigger,
# getPendingNotificationRequests).  It runs against a real uncenterd (default: this
# checkout's debug build) on a private socket given through $UNCENTER_SOCKET, with no
# $UNCENTER_APP, so the app id is the process name; unctl then reads the request back
# from the daemon under that app id.  SwiftPM refuses unsafe build flags in a package
# depended on by version, so this also checks that the client libraries carry none.
# Uncommitted changes are not in the clone: commit first.
#
# Env: SWIFT (default swift).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
swift=${SWIFT:-swift}
uncenterd=${1:-$root/.build/debug/uncenterd}
unctl=${2:-$root/.build/debug/unctl}
for tool in "$uncenterd" "$unctl"; do
  [ -x "$tool" ] || { echo "consumer: FAILED: $tool is missing (swift build first)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/uncenter-consumer.XXXXXX)
daemon=""
cleanup() {
  if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

git clone -q "$root" "$work/uncenter"
git -C "$work/uncenter" -c user.name=check -c user.email=check@localhost tag -a 0.1.0 -m 0.1.0
echo "consumer: cloned $(git -C "$work/uncenter" rev-parse --short HEAD), tagged 0.1.0"

mkdir -p "$work/Reminder/Sources/Reminder"
cat >"$work/Reminder/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Reminder",
  dependencies: [
    .package(url: "file://$work/uncenter", from: "0.1.0")
  ],
  targets: [
    .executableTarget(
      name: "Reminder",
      dependencies: [.product(name: "UserNotifications", package: "uncenter")])
  ]
)
EOF
cat >"$work/Reminder/Sources/Reminder/main.swift" <<'EOF'
import Foundation
import UserNotifications

// As an iOS app writes it; completion handlers run on a background queue, so the main
// thread may wait for each.
let center = UNUserNotificationCenter.current()
let done = DispatchSemaphore(value: 0)
var failure: (any Error)?

center.requestAuthorization(options: [.alert, .sound, .badge]) { granted, error in
  print("granted: \(granted)")
  failure = error
  done.signal()
}
done.wait()

let content = UNMutableNotificationContent()
content.title = "Stand up"
content.body = "An hour at the desk is enough."
let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)
let request = UNNotificationRequest(identifier: "stand-up", content: content, trigger: trigger)
center.add(request) { error in
  failure = failure ?? error
  done.signal()
}
done.wait()

center.getPendingNotificationRequests { requests in
  for request in requests {
    print("pending: \(request.identifier) \(request.content.title)")
  }
  done.signal()
}
done.wait()
print("app: \(center.appId)")
if let failure {
  print("error: \(failure)")
  exit(1)
}
EOF

start=$SECONDS
if ! (cd "$work/Reminder" && "$swift" build -q) >"$work/build.log" 2>&1; then
  tail -n 40 "$work/build.log" >&2
  echo "consumer: FAILED: the package depending on uncenter from: 0.1.0 did not build" >&2
  exit 1
fi
echo "consumer: built in $((SECONDS - start)) s"

export UNCENTER_SOCKET=$work/uncenterd.sock
unset UNCENTER_APP
"$uncenterd" --socket "$UNCENTER_SOCKET" --log-level warn 2>"$work/uncenterd.log" &
daemon=$!
for _ in $(seq 1 100); do [ -S "$UNCENTER_SOCKET" ] && break; sleep 0.1; done
[ -S "$UNCENTER_SOCKET" ] || { echo "consumer: FAILED: uncenterd did not start" >&2; cat "$work/uncenterd.log" >&2; exit 1; }

out=$("$work/Reminder/.build/debug/Reminder") || { echo "consumer: FAILED: Reminder exited $?: $out" >&2; exit 1; }
echo "$out" | sed 's/^/  /'
expect() { grep -qxF "$1" <<<"$out" || { echo "consumer: FAILED: expected the line '$1'" >&2; exit 1; }; }
expect "granted: true"
expect "pending: stand-up Stand up"
# No $UNCENTER_APP and no bundle identifier (a plain executable has no Info.plist): the
# process name.
expect "app: Reminder"
listed=$("$unctl" --json call listPending '{"app": "Reminder"}')
grep -q '"identifier":"stand-up"' <<<"$listed" ||
  { echo "consumer: FAILED: the daemon has no pending stand-up for app Reminder: $listed" >&2; exit 1; }
echo "consumer: OK: a package depending on uncenter from: 0.1.0 builds and runs against uncenterd"
