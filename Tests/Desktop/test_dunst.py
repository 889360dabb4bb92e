"""The Polish seed's message on a real notification server: dunst under Xvfb, on a
private bus.  Checks that it arrived, answers it from dunst's side (`dunstctl action`
= the default action, `dunstctl close` = a dismiss), and takes a screenshot of the
screen (imagemagick's `import`): into docs/desktop-dunst.png with UPDATE_SCREENSHOT=1,
else into the test's temporary directory.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from harness import CHAT, MESSAGE_CATEGORY, ROOT, Bus, Daemon, clean_env, run, wait_until

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = "com.apple.UNNotificationDefaultActionIdentifier"
DISMISS = "com.apple.UNNotificationDismissActionIdentifier"


def test_polish_message_on_dunst():
    directory = tempfile.mkdtemp(prefix="uncenter-dunst-")
    procs = []
    bus = daemon = None
    try:
        read_fd, write_fd = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "900x300x24", "-nolisten", "tcp"],
                                pass_fds=[write_fd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(xvfb)
        os.close(write_fd)
        with os.fdopen(read_fd) as f:
            display = ":" + f.readline().strip()
        assert display != ":", "Xvfb did not start"
        bus = Bus(directory)
        env = clean_env()
        control = os.path.join(directory, "dmenu-control")
        env.update(DISPLAY=display, DBUS_SESSION_BUS_ADDRESS=bus.address, UNCENTER_DMENU_CONTROL=control)
        # The test's dunstrc, with the context menu program named by its absolute path.
        config = os.path.join(directory, "dunstrc")
        with open(os.path.join(HERE, "dunstrc")) as src, open(config, "w") as dst:
            dst.write(src.read().replace("[global]\n", f"[global]\n    dmenu = {os.path.join(HERE, 'dmenu.sh')}\n", 1))
        dunst = subprocess.Popen(["dunst", "-config", config], env=env,
                                 stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "dunst.log"), "w"))
        procs.append(dunst)
        wait_until(lambda: bus.connection.name_has_owner("org.freedesktop.Notifications") or dunst.poll() is not None,
                   what="dunst on the bus")
        assert dunst.poll() is None, "dunst exited"

        def dunstctl(*args):
            return subprocess.run(["dunstctl", *args], env=env, capture_output=True, text=True, check=True).stdout

        daemon = Daemon(directory, ["--desktop", "freedesktop", "--desktop-bus", bus.address])
        wait_until(lambda: daemon.stats()["connected"], what="connected to dunst")
        app = daemon.client({"appId": CHAT, "foreground": False})
        app.call("registerCategories", {"categories": [MESSAGE_CATEGORY]})
        app.call("scheduleLocal", {
            "identifier": "msg-1", "trigger": None,
            "content": {"title": "Nowa wiadomość", "body": "Anna: Cześć! Idziemy jutro na kawę?",
                        "categoryIdentifier": "message", "threadIdentifier": "chat_123", "sound": "default"}})
        wait_until(lambda: dunstctl("count", "displayed").strip() == "1", what="the banner on screen")
        wait_until(lambda: daemon.stats()["shown"] == 1, what="shown 1")

        # dunst draws no buttons: its context menu (dmenu) offers the notification's
        # actions.  Open it, then photograph the screen: the banner and the actions.
        with open(control, "w") as f:
            f.write("show\n")
        subprocess.Popen(["dunstctl", "context"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: os.path.exists(control + ".pid"), what="the context menu")
        target = os.path.join(ROOT, "docs", "desktop-dunst.png") if os.environ.get("UPDATE_SCREENSHOT") \
            else os.path.join(directory, "desktop-dunst.png")
        os.makedirs(os.path.dirname(target), exist_ok=True)

        def shot():
            subprocess.run(["import", "-display", display, "-window", "root", target], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            # Not a blank screen: the banner's pixels differ from the background.
            colors = subprocess.run(["identify", "-format", "%k", target], capture_output=True, text=True).stdout
            return int(colors or 0) > 20
        wait_until(shot, what="a non-blank screenshot")
        print(f"  screenshot: {target}", flush=True)
        with open(control + ".pid") as f:
            menu = int(f.read())
        os.kill(menu, 15)  # the menu closed without a choice: nothing happens
        os.remove(control + ".pid")
        # dunst takes its answer (none) before it takes the next command.
        wait_until(lambda: not os.path.exists(f"/proc/{menu}"), what="the menu closed")
        assert app.call("listDelivered", {})["notifications"][0]["identifier"] == "msg-1"

        # The default action from dunst's side: the app is told, the notification leaves
        # the delivered list, and the banner is closed.
        dunstctl("action", "0")
        got = app.callback("receive")["params"]["response"]
        assert got["actionIdentifier"] == DEFAULT, got
        wait_until(lambda: dunstctl("count", "displayed").strip() == "0", what="banner gone after the action")
        assert app.call("listDelivered", {})["notifications"] == []

        # A second message, dismissed on dunst: customDismissAction tells the app.
        app.call("scheduleLocal", {
            "identifier": "msg-2", "trigger": None,
            "content": {"title": "Nowa wiadomość", "body": "Anna: Halo?", "categoryIdentifier": "message"}})
        wait_until(lambda: dunstctl("count", "displayed").strip() == "1", what="the second banner")
        wait_until(lambda: daemon.stats()["shown"] == 2, what="shown 2")
        dunstctl("close")
        got = app.callback("receive")["params"]["response"]
        assert got["actionIdentifier"] == DISMISS, got
        assert got["notification"]["identifier"] == "msg-2", got

        # A category action chosen from dunst's menu (Usuń = delete): the app is told.
        app.call("scheduleLocal", {
            "identifier": "msg-3", "trigger": None,
            "content": {"title": "Nowa wiadomość", "body": "Anna: Usuń to", "categoryIdentifier": "message"}})
        wait_until(lambda: daemon.stats()["shown"] == 3, what="shown 3")
        wait_until(lambda: dunstctl("count", "displayed").strip() == "1", what="the third banner on screen")
        # dunst now and then lets a context menu request pass without opening the menu
        # (its menu thread still winding up the previous one, on a busy machine): the
        # banner then stays, untouched, and the request is made again.  Once dunst acts it
        # closes the banner, so a missing answer with the banner gone is our failure.
        got = None
        for attempt in range(3):
            with open(control, "w") as f:
                f.write("pick Usuń\n")
            dunstctl("context")
            try:
                got = app.callback("receive", timeout=10)["params"]["response"]
                break
            except AssertionError:
                if dunstctl("count", "displayed").strip() != "1":
                    raise AssertionError("dunst acted on the menu, the app got no receive; dunst.log:\n"
                                         + open(os.path.join(directory, "dunst.log")).read()[-3000:])
                print(f"  dunst did not open its menu (attempt {attempt + 1}); asking again", flush=True)
        assert got is not None, "dunst never opened its menu; dunst.log:\n" + open(
            os.path.join(directory, "dunst.log")).read()[-3000:]
        assert got["actionIdentifier"] == "delete", got
        assert got["notification"]["identifier"] == "msg-3", got

        # All went through dunst: its history has them, under the app's name.
        history = json.loads(dunstctl("history"))["data"][0]
        summaries = [(h["appname"]["data"], h["summary"]["data"], h["body"]["data"]) for h in history]
        assert (CHAT, "Nowa wiadomość", "Anna: Cześć! Idziemy jutro na kawę?") in summaries, summaries
        assert (CHAT, "Nowa wiadomość", "Anna: Halo?") in summaries, summaries
        stats = daemon.stats()
        assert stats["connected"] and stats["answered"] == 3 and stats["failed"] == 0, stats
    finally:
        if daemon:
            daemon.stop()
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
                p.wait(10)
        if bus:
            bus.stop()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run([test_polish_message_on_dunst]))
