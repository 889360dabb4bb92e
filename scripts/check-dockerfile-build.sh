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
#  - its state survives kill -9 (scripts/check-state-survives.sh).
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
pid=""
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$dir"' EXIT
ctl() { UNCENTER_SOCKET="$dir/d.sock" "$bin/unctl" "$@"; }
# start_daemon ARGS...: uncenterd on $dir/d.sock, once `unctl ping` answers (sets pid,
# and answered to the answer).
start_daemon() {
  rm -f "$dir/d.sock"
  "$bin/uncenterd" --socket "$dir/d.sock" "$@" 2>>"$dir/stderr" &
  pid=$!
  for _ in $(seq 1 200); do
    answered=$(ctl ping 2>/dev/null) && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  echo "check-dockerfile-build: uncenterd $* did not answer unctl ping" >&2; cat "$dir/stderr" >&2; exit 1
}
# stop_daemon WHAT: SIGTERM, which must end it with status 0.
stop_daemon() {
  kill -TERM "$pid"
  local status=0
  wait "$pid" || status=$?
  pid=""
  [ "$status" = 0 ] || { echo "check-dockerfile-build: uncenterd $1 exited $status" >&2; cat "$dir/stderr" >&2; exit 1; }
}

start_daemon --socket-mode 0660
echo "unctl ping: $answered"
stop_daemon ""

scripts/check-state-survives.sh "$bin/uncenterd" "$bin/unctl"
echo "check-dockerfile-build: OK"
