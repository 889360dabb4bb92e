#!/usr/bin/env bash
# install-deps.sh PACKAGE...
#
# Installs the Debian packages among PACKAGE that are not installed yet, then checks that
# the Swift toolchain runs.  As root it calls apt-get directly (a fresh machine or a
# container has no sudo); as any other user it goes through sudo, and says so plainly
# when sudo is missing.  Packages are installed without their Recommends: only what the
# project names.  Nothing is done when everything is present, so `make` stays quiet and
# offline on a machine that is set up.
#
# Env: SWIFT (default swift), SUDO (overrides the choice above; SUDO= forces none).
set -euo pipefail

swift=${SWIFT:-swift}
if [ -z "${SUDO+set}" ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi
fi

missing=()
for p in "$@"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  if [ -n "$SUDO" ] && ! command -v "$SUDO" >/dev/null 2>&1; then
    echo "install-deps: not root and no $SUDO: install as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# `command -v swift` is not enough: a toolchain whose own libraries are missing is found
# and then fails to start (libncurses.so.6, libxml2...).
if ! version=$("$swift" --version 2>&1); then
  echo "install-deps: '$swift --version' failed:" >&2
  echo "$version" | sed 's/^/  /' >&2
  if ! command -v "$swift" >/dev/null 2>&1; then
    echo "install-deps: Swift 6 is expected on PATH or at /opt/swift/usr/bin (https://swift.org/install)" >&2
  else
    echo "install-deps: the toolchain's Debian 12 prerequisites are: binutils gcc git libc6-dev" \
      "libcurl4-openssl-dev libedit2 libicu-dev libncurses-dev libpython3-dev libsqlite3-0" \
      "libstdc++-12-dev libxml2-dev libz3-dev pkg-config tzdata uuid-dev zlib1g-dev" >&2
  fi
  exit 1
fi
