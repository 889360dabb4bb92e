#!/usr/bin/env python3
"""listPending latency from one client: --count sequential requests
listPending {"app": APP, "limit": LIMIT}, each sent only after the previous response
came back, timed client-side from just before sendall() to the moment the response's
newline is read (perf_counter_ns).  Nothing is subtracted: the figure includes this
Python client's own socket and loop overhead and both wake-ups on the shared cores.
For scale, the same loop then times --count `ping` round trips on the same
connection (ping_p50_ms, ping_p99_ms): the floor this client can measure.

Every response must be a result with exactly LIMIT requests (the daemon is expected
to hold at least that many pending for APP); it is parsed after the clock stops.

Output: one line on stdout,
  count=2000 limit=100 p50_ms=0.412 p99_ms=0.731 max_ms=1.902 mean_ms=0.430 bytes=41234 errors=0
  ping_p50_ms=0.050 ping_p99_ms=0.120
Exit status 0 when measured, 1 on any error.  Python 3 standard library only.
"""
import argparse
import json
import socket
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--socket", required=True)
    ap.add_argument("--app", default="com.bench")
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--warmup", type=int, default=50, help="untimed requests first (default 50)")
    args = ap.parse_args()

    s = socket.socket(socket.AF_UNIX)
    s.connect(args.socket)
    errors = 0
    first_error = None
    lat = []
    size = 0
    for n in range(args.warmup + args.count):
        req = ('{"jsonrpc":"2.0","id":%d,"method":"listPending","params":{"app":"%s","limit":%d}}\n'
               % (n + 1, args.app, args.limit)).encode()
        buf = b""
        t0 = time.perf_counter_ns()
        s.sendall(req)
        while True:
            chunk = s.recv(1 << 20)
            if not chunk:
                sys.stderr.write("list_latency: connection closed\n")
                return 1
            buf += chunk
            if buf.endswith(b"\n"):
                break
        t1 = time.perf_counter_ns()
        try:
            reply = json.loads(buf)
            ok = ("result" in reply and reply.get("id") == n + 1
                  and len(reply["result"]["requests"]) == args.limit)
        except (ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            errors += 1
            if first_error is None:
                first_error = buf[:300]
        if n >= args.warmup:
            lat.append(t1 - t0)
            size = len(buf)
    lat.sort()

    # the client's floor: the same loop with ping
    plat = []
    for n in range(args.count):
        t0 = time.perf_counter_ns()
        s.sendall(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % (n + 1))
        buf = b""
        while not buf.endswith(b"\n"):
            chunk = s.recv(1 << 16)
            if not chunk:
                sys.stderr.write("list_latency: connection closed\n")
                return 1
            buf += chunk
        plat.append(time.perf_counter_ns() - t0)
    plat.sort()

    def pct(v, q):
        return v[min(len(v) - 1, int(q * len(v)))] / 1e6

    print("count=%d limit=%d p50_ms=%.3f p99_ms=%.3f max_ms=%.3f mean_ms=%.3f bytes=%d errors=%d "
          "ping_p50_ms=%.3f ping_p99_ms=%.3f" % (
              len(lat), args.limit, pct(lat, 0.50), pct(lat, 0.99), lat[-1] / 1e6, sum(lat) / len(lat) / 1e6,
              size, errors, pct(plat, 0.50), pct(plat, 0.99)))
    if errors:
        sys.stderr.write("list_latency: %d bad responses, first: %r\n" % (errors, first_error))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
