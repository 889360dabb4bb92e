#!/usr/bin/env python3
"""Fire lateness under load: how late uncenterd fires one-shot triggers while it
serves a ping load.

Starts a fresh real-clock daemon, schedules --count one-shot timeInterval requests
whose due dates are spread evenly over a --window second window that opens --lead
seconds after the first request is sent (pipelined, --chunk requests per write, the
responses read and checked by a second thread), runs rpcload's ping workload over the
whole window, waits for the window to close, then reads `stats` and reports the
fireLateness histogram: firings, p99 (the first bucket where the cumulative count
reaches 99%) and max, in whole milliseconds as the daemon measures them.

Output: one line on stdout,
  firings=100000 expected=100000 p99=le1ms max_ms=3 le1ms_pct=99.87 ping_rps=... ping_errors=0 schedule_errors=0
plus the raw stats and rpcload line on stderr.  Exit status 0 when the figures were
measured (whatever they are), 1 when something failed (daemon, rpcload, errors).

Python 3 standard library only.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time


def wait_for_socket(path, proc, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("daemon exited with status %s" % proc.returncode)
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            return s
        except OSError:
            time.sleep(0.02)
    raise RuntimeError("daemon did not accept on %s" % path)


def call(sock, method, params=None, rid=1):
    msg = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        msg["params"] = params
    sock.sendall(json.dumps(msg).encode() + b"\n")
    buf = b""
    while not buf.endswith(b"\n"):
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise RuntimeError("connection closed")
        buf += chunk
    reply = json.loads(buf)
    if "error" in reply:
        raise RuntimeError("%s: %s" % (method, reply["error"]))
    return reply["result"]


class Reader(threading.Thread):
    """Reads the scheduleLocal responses; counts results and errors."""

    def __init__(self, sock, expected):
        super().__init__(daemon=True)
        self.sock, self.expected = sock, expected
        self.results = self.errors = 0
        self.first_error = None
        self.done = threading.Event()

    def run(self):
        buf = b""
        seen = 0
        try:
            while seen < self.expected:
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    break
                buf += chunk
                lines = buf.split(b"\n")
                buf = lines.pop()
                for line in lines:
                    seen += 1
                    # a result (the daemon writes "result" right after the id), else an error
                    if b'"result":' in line and b'"error":' not in line[:40]:
                        self.results += 1
                    else:
                        self.errors += 1
                        if self.first_error is None:
                            self.first_error = line[:300]
        finally:
            self.done.set()


def percentile_bucket(buckets, total, q):
    """The first bucket whose cumulative count reaches q of total."""
    cum = 0
    for name, count in buckets.items():
        cum += count
        if total and cum >= q * total:
            return name
    return "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--daemon", required=True, help="path to uncenterd")
    ap.add_argument("--rpcload", required=True, help="path to the compiled rpcload")
    ap.add_argument("--count", type=int, default=100000, help="triggers (default 100000)")
    ap.add_argument("--window", type=float, default=5.0, help="seconds the due dates span (default 5)")
    ap.add_argument("--lead", type=float, default=3.0, help="seconds before the window opens (default 3)")
    ap.add_argument("--chunk", type=int, default=1000, help="requests per write (default 1000)")
    ap.add_argument("--ping", default="4x16", help="ping load CONNSxDEPTH during the window (default 4x16)")
    ap.add_argument("--app", default="com.bench.fire")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="fire-lateness.")
    path = os.path.join(work, "d.sock")
    log = open(os.path.join(work, "daemon.log"), "wb")
    proc = subprocess.Popen(
        [args.daemon, "--socket", path, "--max-pending", "100000000", "--log-level", "warn", "--clock", "real"],
        stdout=log, stderr=subprocess.STDOUT)
    failed = []
    try:
        ctl = wait_for_socket(path, proc)
        sched = wait_for_socket(path, proc)
        reader = Reader(sched, args.count)
        reader.start()

        # Due dates: window_start + i * window / count, absolute on this machine's clock;
        # each request's timeInterval is computed when its chunk is built, so the spread
        # holds however long the scheduling takes.
        t_first = time.time()
        window_start = t_first + args.lead
        step = args.window / args.count
        prefix = ('{"jsonrpc":"2.0","id":%d,"method":"scheduleLocal","params":{"app":"' + args.app +
                  '","identifier":"f-%d","content":{"title":"Due","body":"fire lateness probe"},'
                  '"trigger":{"type":"timeInterval","timeInterval":%.6f,"repeats":false}}}\n')
        for start in range(0, args.count, args.chunk):
            now = time.time()
            parts = []
            for i in range(start, min(start + args.chunk, args.count)):
                parts.append(prefix % (i + 1, i, window_start + i * step - now))
            sched.sendall("".join(parts).encode())
        t_sent = time.time()
        if t_sent > window_start:
            failed.append("scheduling took %.2f s, longer than the lead of %.1f s" % (t_sent - t_first, args.lead))

        # ping load over the rest of the lead, the whole window, and half a second after
        conns, depth = args.ping.split("x")
        ping_secs = max(1.0, window_start + args.window + 0.5 - time.time())
        load = subprocess.run(
            [args.rpcload, "--socket", path, "--conns", conns, "--depth", depth,
             "--seconds", "%.2f" % ping_secs, "--warmup", "0", "--workload", "ping"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ping_line = load.stdout.strip()
        sys.stderr.write("ping load: %s\n" % ping_line)
        if load.stderr.strip():
            sys.stderr.write(load.stderr)
        if load.returncode != 0:
            failed.append("rpcload exit %d" % load.returncode)
        ping = dict(kv.split("=", 1) for kv in ping_line.split() if "=" in kv)

        # the last due date plus a margin, then every schedule response must be in
        time.sleep(max(0.0, window_start + args.window + 1.0 - time.time()))
        reader.done.wait(timeout=30)
        if reader.results + reader.errors < args.count:
            failed.append("only %d of %d schedule responses" % (reader.results + reader.errors, args.count))
        if reader.errors:
            failed.append("%d schedule errors, first: %r" % (reader.errors, reader.first_error))

        stats = call(ctl, "stats", rid=2)
        fl = stats["fireLateness"]
        sys.stderr.write("stats.fireLateness: %s\n" % json.dumps(fl))
        buckets = fl["buckets"]
        firings = fl["firings"]
        total = sum(buckets.values())
        if firings != args.count:
            failed.append("firings %d, expected %d" % (firings, args.count))
        p99 = percentile_bucket(buckets, total, 0.99)
        le1 = 100.0 * buckets.get("le1ms", 0) / total if total else 0.0
        print("firings=%d expected=%d p99=%s max_ms=%d le1ms_pct=%.2f ping_rps=%s ping_p99_us=%s ping_errors=%s "
              "schedule_errors=%d schedule_secs=%.2f" % (
                  firings, args.count, p99, fl["maxMs"], le1, ping.get("rps", "-"), ping.get("p99_us", "-"),
                  ping.get("errors", "-"), reader.errors, t_sent - t_first))
    except Exception as e:  # report, do not hide
        failed.append(str(e))
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
    if failed:
        for f in failed:
            sys.stderr.write("fire_lateness: %s\n" % f)
        sys.stderr.write("fire_lateness: daemon log in %s\n" % work)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
