"""The desktop bridge (proto-docs/README.md, "Desktop: org.freedesktop.Notifications")
against a mock notification server (python-dbusmock) on a private bus.

Run by scripts/test-desktop.sh from `make test`; one line per test, then
`N passed, N failed`.
"""
import os
import sys
import tempfile
import shutil

from harness import CHAT, FULL, NAME, Bus, Daemon, Mock, Setup, clean_env, run, wait_until

DEFAULT = "com.apple.UNNotificationDefaultActionIdentifier"
DISMISS = "com.apple.UNNotificationDismissActionIdentifier"


def with_setup(capabilities=FULL, **kw):
    def wrap(body):
        def test():
            s = Setup(capabilities, **kw)
            try:
                body(s)
            finally:
                s.close()
        test.__name__ = body.__name__
        return test
    return wrap


def one_notify(s, count=1):
    return wait_until(lambda: len(s.mock.notifies()) >= count and s.mock.notifies(), what="Notify")[count - 1]


@with_setup()
def test_notify_arguments(s):
    s.register()
    s.deliver(sound="default")
    args = one_notify(s)
    assert args[:5] == [CHAT, 0, "", "Nowa wiadomość", "Anna: Cześć!"], args
    assert args[5] == ["default", "Open", "reply", "Odpowiedz", "delete", "Usuń"], args[5]
    assert args[6] == {"urgency": 1, "x-uncenter-app": CHAT, "x-uncenter-identifier": "msg-1"}, args[6]
    assert args[7] == -1, args[7]


@with_setup()
def test_summary_subtitle_sound_hints(s):
    s.deliver("a", title="", subtitle="Anna", body="Cześć!", sound="ding")
    args = one_notify(s)
    assert args[3] == CHAT and args[4] == "Anna\nCześć!", args
    assert args[6]["sound-name"] == "ding" and "suppress-sound" not in args[6], args[6]
    s.deliver("b", body="x")
    args = one_notify(s, 2)
    assert args[6]["suppress-sound"] is True, args[6]


@with_setup()
def test_replacement_updates_in_place(s):
    s.deliver()
    first = one_notify(s)
    assert first[1] == 0
    wait_until(lambda: s.daemon.stats()["shown"] == 1, what="shown 1")
    s.deliver(body="Anna: Jesteś?")
    second = one_notify(s, 2)
    assert second[1] == 1 and second[4] == "Anna: Jesteś?", second
    # Another request identifier is a new notification.
    s.deliver("msg-2")
    assert one_notify(s, 3)[1] == 0


@with_setup()
def test_markup_escaped_with_body_markup(s):
    s.deliver(body="<b>R&D</b> 1 < 2")
    assert one_notify(s)[4] == "&lt;b&gt;R&amp;D&lt;/b&gt; 1 &lt; 2"


@with_setup("actions body")
def test_markup_verbatim_without_body_markup_and_no_text_input_without_inline_reply(s):
    s.register()
    s.deliver(body="<b>R&D</b>")
    args = one_notify(s)
    assert args[4] == "<b>R&D</b>", args[4]
    assert args[5] == ["default", "Open", "delete", "Usuń"], args[5]


@with_setup("body")
def test_no_actions_without_the_capability(s):
    s.register()
    s.deliver()
    assert one_notify(s)[5] == []


@with_setup()
def test_urgency_levels(s):
    # Critical alerts need the permission, as on iOS: without it a critical notification
    # is delivered at the active level (urgency 1), with it at urgency 2, never expiring.
    s.deliver("critical-unpermitted", interruptionLevel="critical")
    args = one_notify(s, 1)
    assert (args[6]["urgency"], args[7]) == (1, -1), args
    assert s.user.call("requestAuthorization", {"app": CHAT, "options": ["alert", "criticalAlert"]})["granted"]
    expected = {"passive": (0, -1), "active": (1, -1), "timeSensitive": (1, -1), "critical": (2, 0)}
    for i, level in enumerate(expected):
        s.deliver(level, interruptionLevel=level)
        args = one_notify(s, i + 2)
        assert (args[6]["urgency"], args[7]) == expected[level], (level, args)


def answer_test(signal, signature, values, action, user_text=None):
    @with_setup()
    def body(s):
        s.register()
        app = s.chat()
        s.deliver()
        server_id = one_notify(s)[1] or 1
        wait_until(lambda: s.daemon.stats()["shown"] == 1, what="shown")
        s.mock.emit(signal, signature, [server_id] + values)
        got = app.callback("receive")["params"]["response"]
        assert got["actionIdentifier"] == action, got
        assert got.get("userText") == user_text, got
        assert s.user.call("listDelivered", {"app": CHAT})["notifications"] == []
        if signal != "NotificationClosed":
            # Some servers leave the banner up after an action: it is closed.
            assert wait_until(lambda: s.mock.closes(), what="CloseNotification") == [server_id]
        wait_until(lambda: s.daemon.stats()["answered"] == 1, what="answered 1")
    body.__name__ = f"test_{signal}_{values[0] if values else ''}"
    return body


test_default_action = answer_test("ActionInvoked", "us", ["default"], DEFAULT)
test_category_action = answer_test("ActionInvoked", "us", ["delete"], "delete")
test_inline_reply = answer_test("NotificationReplied", "us", ["Dzięki!"], "reply", "Dzięki!")
test_user_dismiss = answer_test("NotificationClosed", "uu", [2], DISMISS)


@with_setup()
def test_other_close_reasons_change_nothing(s):
    s.register()
    for reason, identifier in [(1, "a"), (3, "b"), (4, "c")]:
        s.deliver(identifier)
        n = len(s.mock.notifies())
        wait_until(lambda: s.daemon.stats()["shown"] == n, what="shown")
        s.mock.emit("NotificationClosed", "uu", [n, reason])
    s.user.call("ping")
    ids = sorted(x["identifier"] for x in s.user.call("listDelivered", {"app": CHAT})["notifications"])
    assert ids == ["a", "b", "c"], ids
    assert s.daemon.stats()["answered"] == 0
    # The banner is gone: a new delivery of "a" is a new notification, not a replacement.
    s.deliver("a")
    assert one_notify(s, 4)[1] == 0


@with_setup()
def test_dismiss_without_custom_dismiss_action_tells_nobody(s):
    s.user.call("registerCategories", {"app": CHAT, "categories": [{"identifier": "message", "actions": []}]})
    app = s.chat()
    s.deliver()
    one_notify(s)
    wait_until(lambda: s.daemon.stats()["shown"] == 1, what="shown")
    s.mock.emit("NotificationClosed", "uu", [1, 2])
    wait_until(lambda: s.user.call("listDelivered", {"app": CHAT})["notifications"] == [], what="dismissed")
    app.call("ping")
    assert [c for c in app.callbacks if c["method"] == "receive"] == []


@with_setup()
def test_answer_with_no_app_connection_is_queued(s):
    s.register()
    s.deliver()
    one_notify(s)
    wait_until(lambda: s.daemon.stats()["shown"] == 1, what="shown")
    s.mock.emit("ActionInvoked", "us", [1, "delete"])
    wait_until(lambda: s.daemon.stats()["answered"] == 1, what="answered")
    app = s.chat()
    assert app.hello["queuedResponses"] == 1, app.hello
    assert app.callback("receive")["params"]["response"]["actionIdentifier"] == "delete"


@with_setup()
def test_unicast_signals_and_other_senders(s):
    s.register()
    app = s.chat()
    s.deliver()
    one_notify(s)
    wait_until(lambda: s.daemon.stats()["shown"] == 1, what="shown")
    # A broadcast from another connection that is not the server: ignored.
    import dbus
    other = dbus.bus.BusConnection(s.bus.address)
    msg = dbus.lowlevel.SignalMessage("/org/freedesktop/Notifications", NAME, "ActionInvoked")
    msg.append(dbus.UInt32(1), "delete", signature="us")
    other.send_message(msg)
    other.flush()
    # The same, addressed to the daemon by the server itself: taken.
    daemon_name = wait_until(lambda: [n for n in s.bus.connection.list_names()
                                     if n.startswith(":") and n not in (s.mock.owner, s.bus.connection.get_unique_name(), other.get_unique_name())],
                             what="the daemon's bus name")[0]
    s.mock.notifications.EmitUnicast(daemon_name, "ActionInvoked", dbus.UInt32(1), "default")
    got = app.callback("receive")["params"]["response"]
    assert got["actionIdentifier"] == DEFAULT, got
    other.close()


@with_setup()
def test_removal_closes(s):
    s.deliver("a")
    s.deliver("b")
    s.deliver("c")
    one_notify(s, 3)
    wait_until(lambda: s.daemon.stats()["shown"] == 3, what="shown")
    assert s.user.call("removeDelivered", {"app": CHAT, "identifiers": ["b"]})["removed"] == 1
    assert wait_until(lambda: s.mock.closes(), what="close b") == [2]
    s.user.call("removeDelivered", {"app": CHAT})
    wait_until(lambda: len(s.mock.closes()) == 3, what="close all")
    assert sorted(s.mock.closes()) == [1, 2, 3]
    wait_until(lambda: s.daemon.stats()["closed"] == 3, what="closed 3")


@with_setup()
def test_badge_or_sound_only_is_not_shown(s):
    s.deliver("badge", title="", body="", badge=3)
    s.deliver("sound", title="", body="", sound="default")
    s.deliver("text", body="tekst")
    args = one_notify(s)
    assert args[-2]["x-uncenter-identifier"] == "text", args
    assert len(s.mock.notifies()) == 1


@with_setup()
def test_foreground_presentation_decides(s):
    listing = s.chat({"foreground": True, "presentation": ["list", "sound"]})
    s.deliver("list-only")
    listing.callback("present")
    listing.sock.close()
    s.user.call("ping")
    banner = s.chat({"foreground": True, "presentation": ["banner"]})
    s.deliver("with-banner")
    banner.callback("present")
    args = one_notify(s)
    assert args[6]["x-uncenter-identifier"] == "with-banner", args
    assert len(s.mock.notifies()) == 1
    # Provisional authorization delivers quietly: no banner either.
    s.user.call("setAuthorization", {"app": CHAT, "status": "provisional"})
    s.deliver("quiet")
    s.user.call("ping")
    assert len(s.mock.notifies()) == 1


@with_setup()
def test_will_present_answer_decides_the_banner(s):
    # An app whose willPresent decides (hello presentationDecision: delegate): its answer,
    # not what it declared, says whether a banner is shown.
    app = s.chat({"foreground": True, "presentation": ["banner", "list"], "presentationDecision": "delegate"})
    s.deliver("declined")
    held = app.callback("present")["params"]
    app.call("completePresentation", {"presentationId": held["presentationId"], "options": ["list"]})
    s.deliver("accepted")
    held = app.callback("present")["params"]
    app.call("completePresentation", {"presentationId": held["presentationId"], "options": ["banner", "sound"]})
    args = one_notify(s)
    assert args[6]["x-uncenter-identifier"] == "accepted", args
    s.user.call("ping")
    assert len(s.mock.notifies()) == 1, s.mock.notifies()


def test_no_bus_serves_and_warns_once():
    directory = tempfile.mkdtemp(prefix="uncenter-desktop-")
    try:
        # (No guid= here: the bus started later has a new one.  Every other test passes
        # dbus-daemon's printed address, guid= included.)
        d = Daemon(directory, ["--desktop", "freedesktop", "--desktop-bus", f"unix:path={directory}/nobus"])
        with d.client({"role": "user"}) as u:
            u.call("scheduleLocal", {"app": CHAT, "identifier": "x", "content": {"title": "t"}, "trigger": None})
            assert len(u.call("listDelivered", {"app": CHAT})["notifications"]) == 1
        stats = d.stats()
        assert stats == {"connected": False, "shown": 0, "closed": 0, "answered": 0, "failed": 0}, stats
        # The bus appears later: the daemon connects on its own.
        bus = Bus(directory, path=f"{directory}/nobus")
        mock = Mock(bus)
        try:
            try:
                wait_until(lambda: d.stats()["connected"], timeout=30, what="connected after the bus appeared")
            except AssertionError:
                raise AssertionError("not connected after the bus appeared: " + d.log())
        finally:
            d.stop()
            mock.stop()
            bus.stop()
        warnings = [line for line in d.log().splitlines() if line.startswith("level=warn")]
        assert len(warnings) == 1 and "event=desktop_no_bus" in warnings[0], warnings
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def test_auto_without_a_session_bus_is_off():
    directory = tempfile.mkdtemp(prefix="uncenter-desktop-")
    try:
        d = Daemon(directory, ["--desktop", "auto"])
        d.stats()
        d.stop()
        log = d.log()
        assert "event=desktop_off" in log and "level=warn" not in log, log
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@with_setup(mock=False)
def test_no_server_then_server_then_restart(s):
    s.deliver("missed")
    s.user.call("ping")
    assert s.daemon.stats()["connected"] is False
    s.mock = Mock(s.bus)
    wait_until(lambda: s.daemon.stats()["connected"], what="connected")
    s.deliver("seen")
    args = one_notify(s)
    assert args[6]["x-uncenter-identifier"] == "seen", args  # missed banners are not shown later
    wait_until(lambda: s.daemon.stats()["shown"] == 1, what="shown")
    s.mock.stop()
    wait_until(lambda: not s.daemon.stats()["connected"], what="disconnected")
    s.deliver("while-away")
    s.user.call("ping")
    s.mock = Mock(s.bus)
    wait_until(lambda: s.daemon.stats()["connected"], what="reconnected")
    s.deliver("seen")  # the old banner went with the old server: a new notification
    args = one_notify(s)
    assert args[1] == 0 and args[6]["x-uncenter-identifier"] == "seen", args
    ids = sorted(x["identifier"] for x in s.user.call("listDelivered", {"app": CHAT})["notifications"])
    assert ids == ["missed", "seen", "while-away"], ids
    warnings = [line for line in s.daemon.log().splitlines() if line.startswith("level=warn")]
    assert len(warnings) == 2, warnings  # one per outage


@with_setup()
def test_counters(s):
    s.register()
    s.chat()
    s.deliver("a")
    s.deliver("b")
    one_notify(s, 2)
    wait_until(lambda: s.daemon.stats()["shown"] == 2, what="shown")
    s.mock.emit("ActionInvoked", "us", [1, "delete"])
    wait_until(lambda: s.daemon.stats()["closed"] == 1, what="closed")
    s.mock.emit("ActionInvoked", "us", [2, "no-such-action"])  # refused by the center
    wait_until(lambda: s.daemon.stats()["failed"] == 1, what="failed")
    assert s.daemon.stats() == {"connected": True, "shown": 2, "closed": 1, "answered": 1, "failed": 1}


@with_setup()
def test_content_extension_decides_first(s):
    s.register()
    app = s.chat()
    ext = s.daemon.client({"appId": CHAT, "role": "contentExtension", "categories": ["message"]})
    s.deliver()
    one_notify(s)
    wait_until(lambda: s.daemon.stats()["shown"] == 1, what="shown")
    s.user.call("expand", {"app": CHAT, "identifier": "msg-1"})
    s.mock.emit("ActionInvoked", "us", [1, "delete"])
    got = ext.callback("didReceiveResponse")["params"]
    assert s.mock.closes() == []  # still delivered while the extension decides
    ext.call("completeExtensionResponse", {"responseId": got["responseId"], "option": "dismissAndForwardAction"})
    assert app.callback("receive")["params"]["response"]["actionIdentifier"] == "delete"
    assert wait_until(lambda: s.mock.closes(), what="close") == [1]


if __name__ == "__main__":
    tests = [v for k, v in list(globals().items()) if k.startswith("test_") and callable(v)]
    only = sys.argv[1:]
    if only:
        tests = [t for t in tests if any(o in t.__name__ for o in only)]
    sys.exit(run(tests))
