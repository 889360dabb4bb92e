#!/usr/bin/env bash
# The desktop tests (proto-docs/README.md, "Desktop: org.freedesktop.Notifications"),
# run by `make test`: uncenterd with --desktop against python-dbusmock's
# notification_daemon on a private dbus-daemon (Tests/Desktop/test_desktop.py), then
# against dunst under Xvfb (test_dunst.py).  Each prints a line per test and `N passed,
# N failed`; the exit status is non-zero when one failed.  UPDATE_SCREENSHOT=1 writes the
# dunst screenshot to docs/desktop-dunst.png.
#
# usage: scripts/test-desktop.sh [UNCENTERD]   (default .build/debug/uncenterd)
set -euo pipefail
cd "$(dirname "$0")/.."
python=$(scripts/ensure-dbusmock.sh)
export UNCENTERD=${1:-$PWD/.build/debug/uncenterd}
export DBUSMOCK_PYTHON=$python
for tool in dbus-daemon Xvfb dunst dunstctl dmenu import identify; do
  command -v "$tool" >/dev/null || { echo "desktop tests: FAILED: $tool is missing (make test-deps)" >&2; exit 1; }
done
status=0
echo "desktop: mock notification server (python-dbusmock)"
"$python" Tests/Desktop/test_desktop.py || status=1
echo "desktop: dunst under Xvfb"
"$python" Tests/Desktop/test_dunst.py || status=1
exit $status
