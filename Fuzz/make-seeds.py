#!/usr/bin/env python3
"""Regenerates the seed corpora in Fuzz/corpus/<harness>/ from the repository's tests:
JSONTestSuite texts, the requests of Tests/Scenarios/*.json, and framed streams of them
in both framings.  Deterministic; run from anywhere."""
import glob
import json
import os
import random
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")


def write(harness, name, data):
    d = os.path.join(CORPUS, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def scenario_messages(path):
    """(connection, request bytes) for a scenario: hello of every connection, then its calls."""
    s = json.load(open(path))
    names = list(s.get("apps", {}).keys())
    for step in s["steps"]:
        if "as" in step and step["as"] not in names:
            names.append(step["as"])
    conn = {n: i % 4 for i, n in enumerate(names)}
    out, seq = [], 0
    for name in names:
        seq += 1
        spec = s.get("apps", {}).get(name)
        params = dict(spec["hello"]) if spec else {"role": "user"}
        if spec:
            params["appId"] = spec["appId"]
        out.append((conn[name], {"jsonrpc": "2.0", "id": seq, "method": "hello", "params": params}))
    for step in s["steps"]:
        if "call" not in step:
            continue
        seq += 1
        msg = {"jsonrpc": "2.0", "id": seq, "method": step["call"]}
        if "params" in step:
            msg["params"] = step["params"]
        out.append((conn.get(step.get("as"), 0), msg))
    return [(c, json.dumps(m, ensure_ascii=False, separators=(",", ":")).encode()) for c, m in out]


def main():
    if os.path.isdir(CORPUS):
        shutil.rmtree(CORPUS)
    scenarios = sorted(glob.glob(os.path.join(ROOT, "Tests", "Scenarios", "*.json")))
    all_requests = [m for p in scenarios for _, m in scenario_messages(p)]

    # json: every 8th JSONTestSuite file (y_, n_ and i_ alike) and a few real requests.
    suite = sorted(glob.glob(os.path.join(ROOT, "Tests", "JSONRPCTests", "JSONTestSuite", "*.json")))
    for p in suite[::8]:
        write("json", os.path.basename(p), open(p, "rb").read())
    for i, m in enumerate(all_requests[::6]):
        write("json", f"request-{i:02}.json", m)
    write("json", "duplicate-keys.json", b'{"a":1,"a":[true,false,null],"b":{"c":"\\ud83d\\ude00"}}')
    write("json", "numbers.json", b"[0,-0,1.5e3,-1E-2,123456789012345678,0.1,1e308]")

    # requests: one file per scenario (lines, '@N ' picks the connection), and a few edge cases.
    for p in scenarios:
        lines = [(b"@%d " % c if c else b"") + m for c, m in scenario_messages(p)]
        write("requests", os.path.basename(p).replace(".json", ".jsonl"), b"\n".join(lines) + b"\n")
    for i, m in enumerate(all_requests[::5]):
        write("requests", f"single-{i:02}.json", m)
    write("requests", "batch.json", b"[" + b",".join(all_requests[:4]) + b',{"jsonrpc":"2.0","method":"ping"},1]')
    write("requests", "empty-batch.json", b"[]")
    write("requests", "notification.json", b'{"jsonrpc":"2.0","method":"advanceClock","params":{"seconds":60}}')

    # framer: byte 0 picks the limit, byte 1 the count of chunk-size bytes, then sizes, then the stream.
    rng = random.Random(7)
    for i in range(12):
        msgs = rng.sample(all_requests, 3)
        nl = b"\n".join(msgs) + b"\n"
        cl = b"".join(b"Content-Length: %d\r\n\r\n" % len(m) + m for m in msgs)
        sizes = bytes(rng.randrange(256) for _ in range(i % 8))
        limit = bytes([15 if i % 3 else rng.randrange(16)])
        write("framer", f"newline-{i:02}", limit + bytes([len(sizes)]) + sizes + nl)
        write("framer", f"content-length-{i:02}", limit + bytes([len(sizes)]) + sizes + cl)
    extras = {
        "crlf-and-blank-lines": b"\x0f\x02\x03\x05\r\n  \n" + all_requests[0] + b"\r\n\n\n" + all_requests[1],
        "headers-lower-and-type": b"\x0f\x01\x07content-length: 2\nContent-Type: application/json\n\n{}\n\nCONTENT-LENGTH:  4 \r\n\r\nnull",
        "oversized-line": b"\x05\x01\x03" + all_requests[2] + b"\n[1]\n",
        "oversized-body": b"\x05\x01\x02Content-Length: 40\r\n\r\n" + b"x" * 40 + b"Content-Length: 2\r\n\r\n[]",
        "conflicting-lengths": b"\x0f\x00Content-Length: 2\r\nContent-Length: 3\r\n\r\n[1]",
        "missing-length": b"\x0f\x00X-Foo: bar\r\n\r\n{}",
        "bad-length": b"\x0f\x00Content-Length: 1x\r\n\r\n{}",
        "truncated-body": b"\x0f\x01\x00Content-Length: 10\r\n\r\n{}",
        "zero-length": b"\x0f\x00Content-Length: 0\r\n\r\nContent-Length: 0\r\n\r\n",
        "no-final-newline": b"\x0f\x01\x01" + all_requests[3],
        "whitespace-only": b"\x0f\x00 \t\r\n  ",
    }
    for name, data in extras.items():
        write("framer", name, data)

    # center: opcode programs (random, deterministic), a few shaped by hand.
    for i in range(30):
        write("center", f"random-{i:02}", bytes(rng.randrange(256) for _ in range(rng.randrange(8, 200))))
    # attach app session 1 (app a), schedule x in 60 s, advance 60 s, respond default, complete.
    write("center", "attach-schedule-advance-respond",
          bytes([0, 0, 0, 8, 1, 0, 0, 15, 1, 0, 0, 0, 1, 0, 1, 7, 0, 0, 11, 8, 0, 6, 0, 0, 0, 0, 0, 17, 0, 1]))
    write("center", "push-service-extension",
          bytes([0, 0, 0, 8, 2, 3, 0, 0, 0, 0, 13, 3, 1, 1, 1, 0, 18, 0, 1, 0, 11, 7, 11, 9]))


if __name__ == "__main__":
    main()
