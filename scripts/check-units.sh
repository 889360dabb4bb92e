#!/usr/bin/env bash
# Checks the systemd units in systemd/:
#
#  1. `systemd-analyze verify --man=no` (Documentation=man: pages are not looked up: minimal
#     systems have no man) of uncenterd.socket and uncenterd.service must print
#     nothing (it exits 0 on warnings, so any output counts as a failure).  verify
#     insists that ExecStart= names an existing executable, so the units are copied to
#     a temporary directory with /usr/local/bin/uncenterd replaced by the built binary
#     (the first argument, default .build/debug/uncenterd); nothing is installed.
#  2. the same for the user units in systemd/user/ (`systemd-analyze --user verify`, with a
#     temporary XDG_RUNTIME_DIR: no user manager is needed), which must listen on
#     %t/uncenterd.sock and run with --desktop auto (README.md, "On the desktop").
#  3. `systemd-analyze security --offline=true` of uncenterd.service: the "Overall
#     exposure level" must be at most 2.0.
#
# Skips (exit 0, with a message) only when systemd-analyze is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_EXPOSURE=2.0
binary=${1:-.build/debug/uncenterd}

if ! command -v systemd-analyze >/dev/null; then
  echo "check-units: SKIPPED: systemd-analyze is not installed (apt-get install systemd)"
  exit 0
fi
if [ ! -x "$binary" ]; then
  echo "check-units: $binary is not built (run swift build first)" >&2
  exit 1
fi
binary=$(realpath "$binary")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp systemd/uncenterd.socket systemd/uncenterd.service "$work/"
sed -i "s|^ExecStart=/usr/local/bin/uncenterd |ExecStart=$binary |" "$work/uncenterd.service"
grep -q "^ExecStart=$binary " "$work/uncenterd.service" || { echo "check-units: ExecStart= not rewritten" >&2; exit 1; }

status=0
output=$(systemd-analyze verify --man=no "$work/uncenterd.socket" "$work/uncenterd.service" 2>&1) || status=$?
if [ -n "$output" ] || [ "$status" -ne 0 ]; then
  echo "check-units: systemd-analyze verify failed (exit $status):" >&2
  echo "$output" >&2
  exit 1
fi
echo "check-units: systemd-analyze verify: no output"

mkdir -m 0700 "$work/user" "$work/run"
cp systemd/user/uncenterd.socket systemd/user/uncenterd.service "$work/user/"
sed -i "s|^ExecStart=/usr/local/bin/uncenterd |ExecStart=$binary |" "$work/user/uncenterd.service"
grep -q "^ExecStart=$binary --desktop auto " "$work/user/uncenterd.service" \
  || { echo "check-units: systemd/user/uncenterd.service must run uncenterd --desktop auto" >&2; exit 1; }
grep -qx 'ListenStream=%t/uncenterd.sock' systemd/user/uncenterd.socket \
  || { echo "check-units: systemd/user/uncenterd.socket must listen on %t/uncenterd.sock" >&2; exit 1; }
status=0
output=$(XDG_RUNTIME_DIR="$work/run" systemd-analyze --user verify --man=no \
  "$work/user/uncenterd.socket" "$work/user/uncenterd.service" 2>&1) || status=$?
if [ -n "$output" ] || [ "$status" -ne 0 ]; then
  echo "check-units: systemd-analyze --user verify failed (exit $status):" >&2
  echo "$output" >&2
  exit 1
fi
echo "check-units: systemd-analyze --user verify (systemd/user): no output"

report=$(systemd-analyze security --offline=true systemd/uncenterd.service 2>&1) || true
line=$(grep "Overall exposure level" <<<"$report" || true)
score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' <<<"$line")
if [ -z "$score" ]; then
  echo "check-units: no exposure level in systemd-analyze security output:" >&2
  echo "$report" >&2
  exit 1
fi
echo "check-units: $line"
if ! awk -v s="$score" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s <= m) }'; then
  echo "check-units: exposure $score is above $MAX_EXPOSURE" >&2
  grep '✗' <<<"$report" >&2 || true
  exit 1
fi
