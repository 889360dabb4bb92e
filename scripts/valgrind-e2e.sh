#!/usr/bin/env bash
# The daemon under valgrind memcheck through an end-to-end client session:
#   scripts/valgrind-e2e.sh
#
# 1. Every scenario in Tests/Scenarios with `unctl run`, which starts a private daemon
#    per scenario (scenarios expect a fresh daemon at their own clock, so they cannot
#    share one); $UNCENTERD points unctl at a wrapper that execs that daemon under
#    valgrind.
# 2. ONE debug uncenterd (manual clock, SQLite state in a temporary directory) under
#    valgrind, driven by a series of unctl commands and a Python client that sends
#    garbage, deep nesting, invalid UTF-8, an oversized message, a batch, huge numbers,
#    pipelined requests and abrupt closes; then SIGTERM.
# Memcheck options: --leak-check=full --errors-for-leak-kinds=definite.  Each daemon's
# valgrind log is then read.
#
# Fails when: the daemon does not exit 0 on SIGTERM, a client step fails, valgrind
# reports an invalid read/write (or any other memcheck error such as use of
# uninitialised values or an invalid free), or a "definitely lost" block has a project
# frame (uncenterd, UNServer, UNModel, JSONRPC, UVLoop, UNStore) in its allocation stack.
# Definitely-lost blocks allocated only by the Swift runtime, Foundation, libuv or
# SQLite are listed but do not fail the run.  VALGRIND_KEEP=1 keeps the log directory.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
export PATH="$PATH:/opt/swift/usr/bin"
command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 1; }

swift build --product uncenterd && swift build --product unctl || { echo "valgrind-e2e: build failed" >&2; exit 1; }
bindir=$(swift build --show-bin-path)
daemon_bin="$bindir/uncenterd"
unctl="$bindir/unctl"

dir=$(mktemp -d /tmp/unvg-XXXXXX)
sock="$dir/d.sock"
log="$dir/valgrind.log"
mkdir -p "$dir/state"
vg=(valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite
  --num-callers=40 --error-exitcode=99)
fail=0
step() {
  if "$@" >"$dir/step.out" 2>&1; then echo "  ok  $*" | cut -c1-150
  else echo "  FAIL $*" | cut -c1-150; sed 's/^/      /' "$dir/step.out" | grep -vE "^      +ok " | head -40; fail=1; fi
}

echo "== scenarios, each with its own uncenterd under valgrind"
cat >"$dir/uncenterd-vg" <<WRAP
#!/bin/sh
exec ${vg[*]} --log-file=$dir/scenario-%p.vg.log "$daemon_bin" "\$@"
WRAP
chmod +x "$dir/uncenterd-vg"
UNCENTERD="$dir/uncenterd-vg" step "$unctl" run Tests/Scenarios/*.json

echo "== one uncenterd under valgrind, a client session"
"${vg[@]}" --log-file="$log" \
  "$daemon_bin" --socket "$sock" --clock manual=2026-01-01T08:00:00Z --state "$dir/state" \
  2>"$dir/stderr.log" &
daemon=$!
finish() {
  kill "$daemon" 2>/dev/null
  [ "${VALGRIND_KEEP:-0}" = 1 ] && echo "kept $dir" || rm -rf "$dir"
}
trap finish EXIT
for _ in $(seq 600); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { echo "valgrind-e2e: uncenterd did not start" >&2; cat "$dir/stderr.log" "$log" >&2; exit 1; }

u() { step "$unctl" --socket "$sock" "$@"; }
u ping
u --json call hello '{"role":"user"}'
u schedule --id a --in 30 --title Hello --body "zażółć" --badge 3 --app com.example.vg
u schedule --id b --now --title Now --thread t1 --summary-argument Alice --app com.example.vg
u schedule --id c --in 60 --repeat --title Every --app com.example.vg
u pending --app com.example.vg
u advance 90
u delivered --app com.example.vg
u delivered --grouped --app com.example.vg
u respond a --default --app com.example.vg
u respond b --dismiss --app com.example.vg
u badge 7 --app com.example.vg
u call removePending '{"app":"com.example.vg","identifiers":["c"]}'
u stats
step python3 - "$sock" <<'PY'
import json, random, socket, sys
path = sys.argv[1]
def conn():
    s = socket.socket(socket.AF_UNIX); s.connect(path); s.settimeout(60); return s
def lines(s, n):
    buf = b""; out = []
    while len(out) < n:
        chunk = s.recv(65536)
        if not chunk: break
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1); out.append(json.loads(line))
    return out
rng = random.Random(7)
# Garbage, then a ping that must still be answered.
s = conn(); s.sendall(bytes(rng.randrange(256) for _ in range(200000)).replace(b"\n", b" ") + b"\n" +
                      b'{"jsonrpc":"2.0","id":"g","method":"ping"}\n')
r = lines(s, 2); assert r[0]["error"]["code"] == -32700 and r[1]["id"] == "g", r
# Deep nesting, invalid UTF-8, oversized, a batch, huge numbers.
s.sendall(b"[" * 100000 + b"\n")
assert lines(s, 1)[0]["error"]["code"] == -32700
s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"scheduleLocal","params":{"app":"com.example.vg","identifier":"u","content":{"title":"\xff"},"trigger":null}}\n')
assert lines(s, 1)[0]["error"]["code"] == -32700
s.sendall(b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"' + b"y" * (1 << 20) + b'"}}\n')
assert lines(s, 1)[0]["error"]["code"] == -32006
s.sendall(b"[" + b",".join(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}' % i for i in range(50)) + b"]\n")
assert len(lines(s, 1)[0]) == 50
s.sendall(b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"setBadgeCount","params":{"app":"com.example.vg","count":1e400}}\n')
assert lines(s, 1)[0]["error"]["code"] == -32602
s.close()
# Abrupt closes mid-message and mid-response, and an app connection that gets callbacks.
for i in range(30):
    s = conn(); s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"listPen'); s.close()
    s = conn(); s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"stats"}\n' * 200); s.close()
a = conn(); a.sendall(b'{"jsonrpc":"2.0","id":"h","method":"hello","params":{"appId":"com.example.vg2"}}\n'); lines(a, 1)
u = conn()
for i in range(100):
    u.sendall(b'{"jsonrpc":"2.0","id":%d,"method":"scheduleLocal","params":{"app":"com.example.vg2","identifier":"n%d","content":{"title":"t"},"trigger":null}}\n' % (i, i % 10))
assert len(lines(u, 100)) == 100
a.close(); u.close()
print("python client ok")
PY

echo "== SIGTERM"
kill -TERM "$daemon"
status=0
wait "$daemon" || status=$?
echo "uncenterd exit status under valgrind: $status (99 = valgrind found errors)"
[ "$status" -eq 0 ] || [ "$status" -eq 99 ] || fail=1

project=0; foreign=0; invalid_total=0
for f in "$dir"/scenario-*.vg.log "$log"; do
  echo "== valgrind summary: $(basename "$f")"
  grep -E "ERROR SUMMARY|definitely lost:|indirectly lost:|possibly lost:|still reachable:|All heap blocks were freed" "$f" | sed 's/^==[0-9]*== */  /'
  grep -q "ERROR SUMMARY" "$f" || { echo "  no leak summary (the daemon did not exit normally)"; fail=1; }
  invalid=$(grep -cE "Invalid (read|write|free)|uninitialised|Mismatched free|overlap" "$f")
  invalid_total=$((invalid_total + invalid))
  [ "$invalid" -eq 0 ] || { grep -A12 -E "Invalid (read|write|free)|uninitialised" "$f" | head -60; fail=1; }
  # Each "definitely lost" loss record with its stack; project frames decide.
  while IFS= read -r -d $'\x1e' record; do
    [ -n "$record" ] || continue
    if grep -qE "UNServer|UNModel|JSONRPC|UVLoop|UNStore|uncenterd" <<<"$record"; then
      project=$((project + 1)); echo "---- definitely lost, project frames:"; echo "$record" | head -30
    else
      foreign=$((foreign + 1)); echo "---- definitely lost, no project frame (not failing):"; echo "$record" | head -12
    fi
  done < <(sed 's/^==[0-9]*== \{0,1\}//' "$f" | awk '/definitely lost in loss record/ {inrec=1} inrec && /^$/ {printf "\x1e"; inrec=0} inrec {print}')
done
echo "== totals: invalid accesses / other memcheck errors: $invalid_total; definitely-lost records: $project with project frames, $foreign without"
[ "$project" -eq 0 ] || fail=1
[ "$fail" -eq 0 ] && echo "valgrind-e2e: PASS" || echo "valgrind-e2e: FAIL"
exit "$fail"
