#!/usr/bin/env bash
# Prints the Python interpreter of .build/venv with python-dbusmock importable, installing
# it first when missing: python-dbusmock from PyPI into the virtual environment (nothing
# system-wide).  dbusmock needs the D-Bus and GLib bindings, which are compiled modules:
# they come from Debian (python3-dbus, python3-gi, in the Makefile's TEST_PACKAGES) and
# are made visible to the venv by a .pth file, after its own packages.  Fails loudly when
# dbusmock cannot be had: the desktop tests never pass unchecked.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/venv
if [ ! -x "$venv/bin/pip" ]; then
  echo "creating: $venv (python3 -m venv)" >&2
  python3 -m venv "$venv" >&2 || { echo "desktop tests: FAILED: python3 -m venv failed (install python3-venv)" >&2; exit 1; }
fi
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo /usr/lib/python3/dist-packages >"$site/debian-dist-packages.pth"
if ! "$venv/bin/python" -c 'import dbusmock' 2>/dev/null; then
  echo "installing: python-dbusmock from PyPI into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check python-dbusmock >&2 \
    || { echo "desktop tests: FAILED: pip install python-dbusmock failed (PyPI unreachable?)" >&2; exit 1; }
fi
"$venv/bin/python" -c 'import dbus, gi, dbusmock' \
  || { echo "desktop tests: FAILED: dbusmock, dbus or gi not importable (install python3-dbus python3-gi)" >&2; exit 1; }
echo "$PWD/$venv/bin/python"
