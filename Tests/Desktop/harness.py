"""Processes for the desktop tests: a private dbus-daemon, python-dbusmock's
notification_daemon template on it, uncenterd with --desktop, and a JSON-RPC client.

Every process is started and stopped by the test that needs it; the machine's own
session bus is never used (DBUS_SESSION_BUS_ADDRESS is removed from the environment).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import dbus

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNCENTERD = os.environ.get("UNCENTERD", os.path.join(ROOT, ".build/debug/uncenterd"))
NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
FULL = "actions body body-markup inline-reply"
CHAT = "com.example.chat"
MESSAGE_CATEGORY = {
    "identifier": "message",
    "actions": [
        {"identifier": "reply", "title": "Odpowiedz", "options": ["foreground"],
         "textInput": {"buttonTitle": "Wyślij", "placeholder": "Wpisz wiadomość..."}},
        {"identifier": "delete", "title": "Usuń", "options": ["destructive"]},
    ],
    "intentIdentifiers": [],
    "options": ["customDismissAction"],
}


def wait_until(predicate, timeout=30.0, what="condition"):
    """Polls; generous timeout (the machine is shared), never a tight timing assert."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def clean_env():
    env = dict(os.environ)
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    env.pop("XDG_RUNTIME_DIR", None)
    env.pop("UNCENTER_SOCKET", None)
    return env


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class Bus:
    """dbus-daemon --session on a socket in a private directory."""

    def __init__(self, directory, path=None):
        self.path = path or os.path.join(directory, "bus")
        # No service directories: nothing on the machine (dunst, a desktop's own server)
        # is D-Bus-activated behind the test's back.
        config = os.path.join(directory, "bus.conf")
        with open(config, "w") as f:
            f.write(BUS_CONFIG)
        self.proc = subprocess.Popen(
            ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address",
             f"--address=unix:path={self.path}"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=clean_env(), text=True)
        self.address = self.proc.stdout.readline().strip()
        assert self.address.startswith("unix:"), f"dbus-daemon printed {self.address!r}"
        self.connection = dbus.bus.BusConnection(self.address)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Mock:
    """dbusmock's notification_daemon with the given capabilities, recording calls."""

    def __init__(self, bus, capabilities=FULL, python=None):
        env = clean_env()
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        python = python or os.environ.get("DBUSMOCK_PYTHON", sys.executable)
        self.proc = subprocess.Popen(
            [python, "-m", "dbusmock", "--template", "notification_daemon",
             "-p", json.dumps({"capabilities": capabilities})],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        self.bus = bus
        wait_until(lambda: bus.connection.name_has_owner(NAME) or self.proc.poll() is not None, what="the mock")
        assert self.proc.poll() is None, "dbusmock exited"
        self.owner = bus.connection.get_name_owner(NAME)
        obj = bus.connection.get_object(NAME, PATH)
        self.mock = dbus.Interface(obj, "org.freedesktop.DBus.Mock")
        # Signals addressed to one connection (some servers send them so), on request.
        self.notifications = dbus.Interface(obj, NAME)
        self.mock.AddMethod(
            NAME, "EmitUnicast", "ssuv", "",
            "m = dbus.lowlevel.SignalMessage('/org/freedesktop/Notifications', "
            "'org.freedesktop.Notifications', args[1]); m.set_destination(args[0]); "
            "m.append(dbus.UInt32(args[2]), args[3], signature='u' + ('s' if isinstance(args[3], str) else 'u')); "
            "self.connection.send_message(m)")

    def calls(self, method=None):
        """[(method, args)] in order, python types."""
        out = []
        for _, name, args in self.mock.GetCalls():
            if method is None or name == method:
                out.append((str(name), [unwrap(a) for a in args]))
        return out

    def notifies(self):
        return [args for _, args in self.calls("Notify")]

    def closes(self):
        return [args[0] for _, args in self.calls("CloseNotification")]

    def emit(self, member, signature, args):
        self.mock.EmitSignal(NAME, member, signature, args)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def unwrap(v):
    if isinstance(v, dbus.Dictionary):
        return {str(k): unwrap(x) for k, x in v.items()}
    if isinstance(v, (dbus.Array, list)):
        return [unwrap(x) for x in v]
    if isinstance(v, dbus.Boolean):
        return bool(v)
    if isinstance(v, (dbus.Byte, dbus.UInt32, dbus.Int32, dbus.Int64, dbus.UInt64, dbus.Int16, dbus.UInt16)):
        return int(v)
    if isinstance(v, dbus.String):
        return str(v)
    return v


class Daemon:
    """uncenterd on a temporary socket with a manual clock."""

    def __init__(self, directory, args, env=None):
        self.socket = os.path.join(directory, "d.sock")
        self.stderr_path = os.path.join(directory, "uncenterd.stderr")
        self.stderr = open(self.stderr_path, "w")
        self.proc = subprocess.Popen(
            [UNCENTERD, "--socket", self.socket, "--clock", "manual=2026-01-01T08:00:00Z"] + args,
            stdout=subprocess.DEVNULL, stderr=self.stderr, env=env or clean_env())
        wait_until(lambda: os.path.exists(self.socket) or self.proc.poll() is not None, what="the socket")
        assert self.proc.poll() is None, f"uncenterd exited: {self.log()}"

    def log(self):
        with open(self.stderr_path) as f:
            return f.read()

    def client(self, hello=None):
        return Client(self.socket, hello)

    def stats(self):
        with self.client() as c:
            return c.call("stats")["desktop"]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                status = self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise AssertionError("uncenterd did not stop on SIGTERM")
            assert status == 0, f"uncenterd exited {status}"
        self.stderr.close()


class Client:
    """Newline-delimited JSON-RPC; callbacks (server notifications) are kept in order."""

    def __init__(self, path, hello=None):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.settimeout(30)
        self.buffer = b""
        self.callbacks = []
        self.next_id = 0
        if hello is not None:
            self.hello = self.call("hello", hello)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.sock.close()

    def _read(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AssertionError("uncenterd closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def call(self, method, params=None, error=False):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.sock.sendall(json.dumps(message).encode() + b"\n")
        while True:
            reply = self._read()
            if "id" not in reply:
                self.callbacks.append(reply)
                continue
            assert reply["id"] == self.next_id
            if error:
                assert "error" in reply, f"{method}: expected an error, got {reply}"
                return reply["error"]
            assert "result" in reply, f"{method} {params}: {reply}"
            return reply["result"]

    def callback(self, method, timeout=30):
        """The first callback of `method` not yet taken, waiting for it."""
        self.sock.settimeout(0.1)
        deadline = time.monotonic() + timeout
        try:
            while True:
                for i, c in enumerate(self.callbacks):
                    if c.get("method") == method:
                        return self.callbacks.pop(i)
                if time.monotonic() > deadline:
                    raise AssertionError(f"no {method} callback; got {self.callbacks}")
                try:
                    reply = self._read()
                    self.callbacks.append(reply)
                except socket.timeout:
                    pass
        finally:
            self.sock.settimeout(30)


class Setup:
    """A directory, a bus, a mock and a daemon for one test; torn down in reverse."""

    def __init__(self, capabilities=FULL, daemon_args=None, mock=True):
        self.directory = tempfile.mkdtemp(prefix="uncenter-desktop-")
        self.bus = Bus(self.directory)
        self.mock = Mock(self.bus, capabilities) if mock else None
        self.daemon = Daemon(
            self.directory,
            ["--desktop", "freedesktop", "--desktop-bus", self.bus.address] + (daemon_args or []))
        if mock:
            wait_until(lambda: self.daemon.stats()["connected"], what="desktop connected")
        self.user = self.daemon.client({"role": "user"})

    def chat(self, hello=None):
        """The chat app's connection (in the background unless told)."""
        return self.daemon.client(dict({"appId": CHAT, "foreground": False}, **(hello or {})))

    def register(self):
        self.user.call("registerCategories", {"app": CHAT, "categories": [MESSAGE_CATEGORY]})

    def deliver(self, identifier="msg-1", **content):
        c = {"title": "Nowa wiadomość", "body": "Anna: Cześć!", "categoryIdentifier": "message"}
        c.update(content)
        return self.user.call("scheduleLocal", {"app": CHAT, "identifier": identifier, "content": c, "trigger": None})

    def close(self):
        try:
            self.user.sock.close()
            self.daemon.stop()
        finally:
            if self.mock:
                self.mock.stop()
            self.bus.stop()
            shutil.rmtree(self.directory, ignore_errors=True)


def run(tests):
    """Runs test functions; prints a line each and `N passed, N failed`; exit status."""
    passed = failed = 0
    for test in tests:
        start = time.monotonic()
        try:
            test()
            passed += 1
            print(f"PASS {test.__name__} ({time.monotonic() - start:.1f}s)", flush=True)
        except Exception as e:  # a failed assert or a broken process: the test fails
            failed += 1
            print(f"FAIL {test.__name__}: {type(e).__name__}: {e}", flush=True)
    print(f"{passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 else 1
