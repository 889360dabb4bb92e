#!/usr/bin/env bash
# An optimized uncenterd keeps its state: with --state, two requests are scheduled, the
# daemon is killed with SIGKILL, and a new one on the same directory lists both requests
# and still has their `scheduled` events under the same numbers.
#
# The test suite runs the debug build. An optimized build (`swift build -c release`,
# what `make run` starts) once stored the requests but never the events, so `make test`
# runs this on the release build and on the Dockerfile's static one.
#
# usage: scripts/check-state-survives.sh UNCENTERD UNCTL
set -euo pipefail
daemon=$1 unctl=$2
dir=$(mktemp -d /tmp/uncenter-state-check-XXXXXX)
pid=""
trap 'if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi; rm -rf "$dir"' EXIT
ctl() { UNCENTER_SOCKET="$dir/d.sock" "$unctl" --json "$@"; }
start_daemon() {
  rm -f "$dir/d.sock"
  "$daemon" --socket "$dir/d.sock" --state "$dir/state" --clock manual=2026-01-01T08:00:00Z 2>>"$dir/stderr" &
  pid=$!
  for _ in $(seq 1 200); do
    ctl ping >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "check-state-survives: $daemon did not answer unctl ping" >&2; cat "$dir/stderr" >&2; exit 1
}
scheduled() { # scheduled ID: the `scheduled` event of ID in the history
  ctl call waitFor '{"event":{"app":"com.check","type":"scheduled","identifier":"'"$1"'"},"timeout":0}'
}

start_daemon
for id in r1 r2; do
  ctl call scheduleLocal '{"app":"com.check","identifier":"'$id'","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":60,"repeats":false}}' >/dev/null
done
before="$(scheduled r1) $(scheduled r2)"
kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
start_daemon
pending=$(ctl call listPending '{"app":"com.check"}')
after="$(scheduled r1) $(scheduled r2)"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
pid=""
[ "$status" = 0 ] || { echo "check-state-survives: uncenterd --state exited $status" >&2; cat "$dir/stderr" >&2; exit 1; }
case $pending in
  *'"r1"'*'"r2"'*) ;;
  *) echo "check-state-survives: after kill -9 the pending requests are gone: $pending" >&2; exit 1 ;;
esac
case $before in
  *'"seq":1,'*'"seq":2,'*) ;;
  *) echo "check-state-survives: no scheduled events: $before" >&2; exit 1 ;;
esac
[ "$after" = "$before" ] || {
  echo "check-state-survives: after kill -9 the event history differs: before $before, after $after" >&2
  exit 1
}
echo "check-state-survives: $daemon: after kill -9, 2 pending and both scheduled events (seq 1, 2) kept"
