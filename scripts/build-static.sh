#!/usr/bin/env bash
# Release build of uncenterd and unctl for a bare Debian 12 runtime: the Swift standard
# library and Foundation linked in statically (--static-swift-stdlib), and libuv (and
# SQLite, once the package uses it) linked from Debian's static archives, so the
# binaries need nothing beyond glibc, libstdc++ and libgcc_s at run time.
#
# The Dockerfile's build stage runs this very script, and so does
# scripts/check-dockerfile-build.sh on a development machine.
#
# usage: scripts/build-static.sh [SCRATCH_PATH]   (default .build/static)
# Needs: swift, libuv1-dev (and libsqlite3-dev).  Prints the binaries' directory last.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${1:-.build/static}
mkdir -p "$scratch/static-libs"
libs=$(cd "$scratch/static-libs" && pwd)

# Debian's libuv1-dev ships its static archive as libuv_a.a, and SwiftPM links what
# pkg-config says for "libuv": `-L/usr/lib/<arch> -luv`, which would pick libuv.so.
# So the archives are linked under their usual names into a directory of their own,
# with .pc files pointing there, found first through PKG_CONFIG_PATH.
uv_archive=$(dpkg -L libuv1-dev | grep '/libuv_a\.a$')
ln -sfn "$uv_archive" "$libs/libuv.a"
cat >"$libs/libuv.pc" <<PC
Name: libuv
Description: libuv, static archive from Debian's libuv1-dev
Version: $(pkg-config --modversion libuv)
Libs: -L$libs -luv -lpthread -ldl -lrt
Cflags:
PC
if sqlite_archive=$(dpkg -L libsqlite3-dev 2>/dev/null | grep '/libsqlite3\.a$'); then
  ln -sfn "$sqlite_archive" "$libs/libsqlite3.a"
  cat >"$libs/sqlite3.pc" <<PC
Name: SQLite
Description: SQLite, static archive from Debian's libsqlite3-dev
Version: $(pkg-config --modversion sqlite3)
Libs: -L$libs -lsqlite3 -lm -ldl -lpthread
Cflags:
PC
fi
export PKG_CONFIG_PATH="$libs${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

for product in uncenterd unctl; do
  swift build -c release --scratch-path "$scratch" --static-swift-stdlib \
    -Xlinker -L"$libs" --product "$product"
done
swift build -c release --scratch-path "$scratch" --show-bin-path
