#!/usr/bin/env bash
# What the Dockerfile's build stage does, on this machine (there is no container engine
# here): runs scripts/build-static.sh -- the script the Dockerfile runs -- into its own
# scratch path, then checks that
#
#  - the Dockerfile still builds with that script;
#  - ldd shows only what debian:bookworm-slim has without extra packages: the vDSO,
#    the dynamic loader, libc, libm, libstdc++ and libgcc_s (libstdc++ and libgcc_s
#    come from the Swift runtime's C++ parts; bookworm-slim ships both);
#  - the binaries start: uncenterd serves a temporary socket, `unctl ping` answers,
#    SIGTERM stops it with status 0;
#  - the optimized build keeps its state: with --state, two requests scheduled and the
#    daemon killed with SIGKILL, a new daemon lists both and still has their `scheduled`
#    events under the same numbers (the test suite runs the debug build; an optimized
#    build once stored the requests but not the events).
#
# usage: scripts/check-dockerfile-build.sh [SCRATCH_PATH]   (default .build/static)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=$PATH:/opt/swift/usr/bin

scratch=${1:-.build/static}
grep -q '^RUN scripts/build-static.sh .build/static' Dockerfile \
  || { echo "check-dockerfile-build: the Dockerfile no longer runs scripts/build-static.sh" >&2; exit 1; }

start=$(date +%s)
bin=$(scripts/build-static.sh "$scratch" | tail -n 1)
echo "check-dockerfile-build: built in $(( $(date +%s) - start )) s into $bin"

allowed='^(linux-vdso\.so\.1|/lib64/ld-linux-x86-64\.so\.2|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|/lib/ld-linux-aarch64\.so\.1|libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'
failed=0
for exe in uncenterd unctl; do
  echo "ldd $exe:"
  ldd "$bin/$exe" | sed 's/^/  /'
  unexpected=$(ldd "$bin/$exe" | awk '{print $1}' | grep -Ev "$allowed" || true)
  if [ -n "$unexpected" ]; then
    echo "check-dockerfile-build: $exe needs libraries the runtime image lacks: $unexpected" >&2
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1

dir=$(mktemp -d /tmp/uncenter-static-XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
"$bin/uncenterd" --socket "$dir/d.sock" --socket-mode 0660 2>"$dir/stderr" &
pid=$!
answered=""
for _ in $(seq 1 200); do
  if answered=$(UNCENTER_SOCKET="$dir/d.sock" "$bin/unctl" ping 2>/dev/null); then break; fi
  answered=""
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.05
done
[ -n "$answered" ] || { echo "check-dockerfile-build: unctl ping got no answer" >&2; cat "$dir/stderr" >&2; exit 1; }
echo "unctl ping: $answered"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[ "$status" = 0 ] || { echo "check-dockerfile-build: uncenterd exited $status" >&2; cat "$dir/stderr" >&2; exit 1; }
# start_daemon ARGS...: uncenterd on $dir/d.sock, waits until it answers (sets pid).
start_daemon() {
  rm -f "$dir/d.sock"
  "$bin/uncenterd" --socket "$dir/d.sock" "$@" 2>>"$dir/stderr" &
  pid=$!
  for _ in $(seq 1 200); do
    UNCENTER_SOCKET="$dir/d.sock" "$bin/unctl" ping >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "check-dockerfile-build: uncenterd $* did not answer" >&2; cat "$dir/stderr" >&2; exit 1
}
ctl() { UNCENTER_SOCKET="$dir/d.sock" "$bin/unctl" --json "$@"; }
state=(--state "$dir/state" --clock manual=2026-01-01T08:00:00Z)
start_daemon "${state[@]}"
for id in r1 r2; do
  ctl call scheduleLocal '{"app":"com.check","identifier":"'$id'","content":{"title":"T"},"trigger":{"type":"timeInterval","timeInterval":60,"repeats":false}}' >/dev/null
done
events_before=$(ctl call waitFor '{"event":{"app":"com.check","type":"scheduled","identifier":"r2"},"timeout":0}')
kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
start_daemon "${state[@]}"
pending_after=$(ctl call listPending '{"app":"com.check"}')
events_after=$(ctl call waitFor '{"event":{"app":"com.check","type":"scheduled","identifier":"r2"},"timeout":0}')
kill -TERM "$pid"; wait "$pid" || { echo "check-dockerfile-build: uncenterd --state exited $?" >&2; exit 1; }
case $pending_after in
  *'"r1"'*'"r2"'*) ;;
  *) echo "check-dockerfile-build: after kill -9 the pending requests are gone: $pending_after" >&2; exit 1 ;;
esac
case $events_before in *'"seq"'*) ;; *) echo "check-dockerfile-build: no scheduled event: $events_before" >&2; exit 1 ;; esac
[ "$events_after" = "$events_before" ] || {
  echo "check-dockerfile-build: after kill -9 the event history differs: before $events_before, after $events_after" >&2
  exit 1
}
echo "--state after kill -9: 2 pending, event kept: $events_after"
echo "check-dockerfile-build: OK"
