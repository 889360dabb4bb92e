#!/usr/bin/env bash
# Soak test: scripts/soak.sh [MINUTES]   (default 10)
#
# Builds and starts a release uncenterd (real clock) on a private socket, runs
# scripts/soak_load.py (SOAK_WORKERS client processes, default 4, that connect and
# disconnect repeatedly with a mixed load whose daemon-side state stays bounded), samples
# the daemon's VmRSS every 10 s, and prints start / minute-1 / end / max RSS and the
# number of requests.
#
# Fails when the daemon dies, the load reports a failure, or the RSS at the end is more
# than SOAK_GROWTH (default 1.5) times the RSS at minute 1.  How 1.5 was chosen: after a
# minute of warm-up the daemon's working set is fixed (at most 40 pending and 25
# delivered per app, a handful of connections), so its RSS should be flat; what remains
# is malloc arena and fragmentation noise, a few MB on a ~10-30 MB process, far below
# 50 %.  A real leak is proportional to the traffic (thousands of requests a second):
# even 16 bytes per request grows a 10-minute run by well over 50 % of the
# minute-1 figure, so it cannot hide under the threshold.
set -uo pipefail
minutes=${1:-10}
workers=${SOAK_WORKERS:-4}
growth=${SOAK_GROWTH:-1.5}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
export PATH="$PATH:/opt/swift/usr/bin"

swift build -c release --product uncenterd || { echo "soak: release build failed" >&2; exit 1; }
bin=$(swift build -c release --show-bin-path)/uncenterd

dir=$(mktemp -d /tmp/unsoak-XXXXXX)
sock="$dir/d.sock"
"$bin" --socket "$sock" --clock real --log-level warn 2>"$dir/stderr.log" &
daemon=$!
cleanup() {
  kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { echo "soak: uncenterd did not start" >&2; cat "$dir/stderr.log" >&2; exit 1; }

rss() { awk '/^VmRSS:/ {print $2}' "/proc/$daemon/status" 2>/dev/null; }
seconds=$((minutes * 60))
echo "soak: $minutes min, $workers client processes, daemon pid $daemon ($bin)"
python3 "$root/scripts/soak_load.py" --socket "$sock" --seconds "$seconds" --workers "$workers" >"$dir/load.out" 2>"$dir/load.err" &
load=$!

start=$(rss); max=$start; minute1=""; last=$start
t=0
while kill -0 "$load" 2>/dev/null; do
  sleep 10
  t=$((t + 10))
  now=$(rss)
  if [ -z "$now" ]; then echo "soak: uncenterd died at ${t}s" >&2; cat "$dir/stderr.log" >&2; exit 1; fi
  last=$now
  [ "$now" -gt "$max" ] && max=$now
  [ -z "$minute1" ] && [ "$t" -ge 60 ] && minute1=$now
  echo "  t=${t}s rss=${now} kB"
done
wait "$load"
loadstatus=$?
end=$(rss)
[ -n "$end" ] || { echo "soak: uncenterd died" >&2; cat "$dir/stderr.log" >&2; exit 1; }
[ -n "$minute1" ] || minute1=$last
stats=$(python3 - "$sock" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"stats"}\n')
buf = b""
while b"\n" not in buf: buf += s.recv(65536)
r = json.loads(buf)["result"]
print("daemon: requests=%d connectionsAccepted=%d connections=%d pending=%d delivered=%d queuedResponses=%d" % (
    r["requests"], r["connectionsAccepted"], r["connections"], r["pending"], r["delivered"], r["queuedResponses"]))
PY
)
echo "load: $(cat "$dir/load.out")"
echo "$stats"
echo "RSS kB: start=$start minute1=$minute1 end=$end max=$max (limit end <= $growth x minute1)"
[ -s "$dir/load.err" ] && cat "$dir/load.err" >&2
grep -v "^$" "$dir/stderr.log" | head -20 >&2
fail=0
[ "$loadstatus" -eq 0 ] || { echo "soak: FAIL: the load generator failed" >&2; fail=1; }
if awk -v e="$end" -v m="$minute1" -v g="$growth" 'BEGIN { exit !(e > g * m) }'; then
  echo "soak: FAIL: RSS grew from $minute1 kB (minute 1) to $end kB" >&2
  fail=1
fi
[ "$fail" -eq 0 ] && echo "soak: PASS"
exit "$fail"
