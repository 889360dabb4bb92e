#!/usr/bin/env python3
"""Mixed load for scripts/soak.sh (Python 3 standard library only).

    soak_load.py --socket PATH --seconds N [--workers K] [--seed S]

K worker processes, each its own app (com.example.soak<k>), connect and disconnect
repeatedly: an app connection (hello, foreground or background) that reads its
callbacks, and a user connection that acts on delivered notifications.  Each session
issues a random mix of scheduleLocal (timeInterval 1-3 s, and deliver-now), listPending,
listDelivered, respond (tap, dismiss), removeDelivered, removePending, setBadgeCount,
registerCategories, getCategories, ping and stats, then leaves: politely, or abruptly
with requests in flight and answers unread.

The daemon's state stays bounded, so a flat RSS is meaningful: identifiers are reused
cyclically (a scheduled identifier replaces the pending one, a delivered one replaces the
delivered one), at most PENDING_IDS pending and DELIVERED_IDS delivered per app, and
delivered notifications are tapped or removed.

Prints one line at the end: `requests=N errors=E sessions=S abrupt=A callbacks=C`.
Exits 1 when a worker could not talk to the daemon (refused, unexpected error code).
"""
import argparse
import json
import multiprocessing
import random
import socket
import sys
import time

PENDING_IDS = 40
DELIVERED_IDS = 25
TAP = "com.apple.UNNotificationDefaultActionIdentifier"
DISMISS = "com.apple.UNNotificationDismissActionIdentifier"
CATEGORIES = [
    {"identifier": "message", "actions": [
        {"identifier": "reply", "title": "Reply", "options": [],
         "textInput": {"buttonTitle": "Send", "placeholder": "Message"}},
        {"identifier": "like", "title": "Like", "options": ["foreground"]}],
     "intentIdentifiers": [], "options": ["customDismissAction"]},
]


class Conn:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(30)
        self.sock.connect(path)
        self.buf = b""
        self.next_id = 1
        self.callbacks = 0

    def send(self, method, params=None):
        i = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": i, "method": method}
        if params is not None:
            msg["params"] = params
        self.sock.sendall(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
        return i

    def read(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(262144)
            if not chunk:
                raise ConnectionError("closed by the daemon")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def call(self, method, params=None):
        i = self.send(method, params)
        while True:
            m = self.read()
            if m.get("id") == i:
                return m
            if "method" in m and "id" not in m:
                self.callbacks += 1
            elif m.get("id") is None and "error" in m:
                raise RuntimeError("unexpected error: %r" % m)

    def close(self):
        self.sock.close()


def worker(k, path, seconds, seed, results):
    rng = random.Random(seed * 1000 + k)
    app = "com.example.soak%d" % k
    requests = errors = sessions = abrupt = callbacks = 0
    failure = None
    deadline = time.monotonic() + seconds
    counter = 0

    def check(reply, allowed=()):
        nonlocal requests, errors
        requests += 1
        if "error" in reply:
            errors += 1
            if reply["error"]["code"] not in allowed:
                raise RuntimeError("%s: %r" % (app, reply["error"]))
        return reply.get("result")

    try:
        while time.monotonic() < deadline:
            sessions += 1
            a = Conn(path)
            u = Conn(path)
            check(a.call("hello", {"appId": app, "foreground": rng.random() < 0.5}))
            check(u.call("hello", {"role": "user"}))
            if rng.random() < 0.1:
                check(a.call("registerCategories", {"categories": CATEGORIES}))
            for _ in range(rng.randint(20, 200)):
                counter += 1
                r = rng.random()
                if r < 0.30:
                    check(a.call("scheduleLocal", {
                        "identifier": "p%d" % rng.randrange(PENDING_IDS),
                        "content": {"title": "T%d" % counter, "body": "x" * rng.randint(0, 400),
                                    "categoryIdentifier": "message", "threadIdentifier": "t%d" % (counter % 3),
                                    "userInfo": {"n": counter}},
                        "trigger": {"type": "timeInterval", "timeInterval": rng.randint(1, 3), "repeats": False}}))
                elif r < 0.45:
                    check(a.call("scheduleLocal", {
                        "identifier": "d%d" % rng.randrange(DELIVERED_IDS),
                        "content": {"title": "now", "body": "y" * rng.randint(0, 200), "badge": rng.randint(0, 9),
                                    "categoryIdentifier": "message"},
                        "trigger": None}))
                elif r < 0.55:
                    check(a.call("listPending"))
                elif r < 0.65:
                    res = check(u.call("listDelivered", {"app": app, "limit": 10}))
                    notes = res["notifications"] if res else []
                    if notes:
                        n = rng.choice(notes)
                        ident = n["request"]["identifier"]
                        action = TAP if rng.random() < 0.5 else DISMISS
                        # The notification may have been replaced meanwhile: notFound is fine.
                        check(u.call("respond", {"app": app, "identifier": ident, "actionIdentifier": action}),
                              allowed=(-32003,))
                elif r < 0.70:
                    check(u.call("removeDelivered", {"app": app,
                                                    "identifiers": ["d%d" % rng.randrange(DELIVERED_IDS)]}))
                elif r < 0.74:
                    check(a.call("removePending", {"identifiers": ["p%d" % rng.randrange(PENDING_IDS)]}))
                elif r < 0.80:
                    check(a.call("setBadgeCount", {"count": rng.randint(0, 99)}))
                elif r < 0.85:
                    check(a.call("getCategories"))
                elif r < 0.95:
                    check(u.call("ping"))
                else:
                    check(u.call("stats"))
            if rng.random() < 0.3:
                # Abrupt: requests in flight, answers unread, then gone.
                abrupt += 1
                for _ in range(rng.randint(1, 50)):
                    a.send("listPending")
                    u.send("listDelivered", {"app": app})
            callbacks += a.callbacks + u.callbacks
            a.close()
            u.close()
    except Exception as e:  # noqa: BLE001 - reported, and the run fails
        failure = "%s: %s" % (app, e)
    results.put((requests, errors, sessions, abrupt, callbacks, failure))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--socket", required=True)
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    results = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=worker, args=(k, args.socket, args.seconds, args.seed, results))
             for k in range(args.workers)]
    for p in procs:
        p.start()
    totals = [0, 0, 0, 0, 0]
    failures = []
    for _ in procs:
        r = results.get()
        for i in range(5):
            totals[i] += r[i]
        if r[5]:
            failures.append(r[5])
    for p in procs:
        p.join()
    print("requests=%d errors=%d sessions=%d abrupt=%d callbacks=%d" % tuple(totals))
    for f in failures:
        print("worker failed: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
