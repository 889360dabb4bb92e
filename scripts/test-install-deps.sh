#!/usr/bin/env bash
# test-install-deps.sh: the Makefile's install step (`make deps`, `make test-deps`) run
# against stub apt-get, dpkg-query, sudo, id and swift that record what they were asked
# and install nothing, so it takes a second and needs no network.  Cases:
#
#   1. root, every package missing, no sudo anywhere: apt-get is called directly for
#      each package the Makefile names, never sudo.
#   2. a user (uid 1000) with sudo: `sudo apt-get update` and `sudo apt-get install`.
#   3. a user without sudo: fails, and the message says to install as root.
#   4. root, everything installed: nothing is installed.
#   5. a toolchain that is found but cannot start: fails, naming the prerequisites.
#   6. test-deps asks for the test packages too.
#
# Prints one line per check and `N passed, N failed`; exits 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "ok: $name"; else failed=$((failed + 1)); echo "FAILED: $name"; fi
}

# stubs NAME UID INSTALLED SUDO SWIFT: a bin directory of stubs for one case.
# INSTALLED=all|none; SUDO=yes|no; SWIFT=ok|broken.  Calls are logged to $dir/calls.
stubs() {
  local dir=$work/$1 uid=$2 installed=$3 sudo=$4 swift=$5
  mkdir -p "$dir/bin"; : >"$dir/calls"
  cat >"$dir/bin/id" <<EOF
#!/bin/sh
if [ "\$1" = -u ]; then echo $uid; else /usr/bin/id "\$@"; fi
EOF
  cat >"$dir/bin/dpkg-query" <<EOF
#!/bin/sh
echo "dpkg-query \$*" >>"$dir/calls"
[ "$installed" = all ] && printf 'install ok installed' && exit 0
echo "dpkg-query: no packages found matching \$4" >&2; exit 1
EOF
  cat >"$dir/bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$dir/calls"
EOF
  if [ "$sudo" = yes ]; then
    cat >"$dir/bin/sudo" <<EOF
#!/bin/sh
echo "sudo \$*" >>"$dir/calls"
exec "\$@"
EOF
  else
    # Present but refusing, so a Makefile that calls sudo as root fails even on a machine
    # whose /usr/bin has a real sudo.
    cat >"$dir/bin/sudo" <<EOF
#!/bin/sh
echo "sudo \$*" >>"$dir/calls"
echo "sudo: command not found" >&2; exit 127
EOF
  fi
  if [ "$swift" = ok ]; then
    printf '#!/bin/sh\necho "Swift version 6.3.1 (stub)"\n' >"$dir/bin/swift"
  else
    printf '#!/bin/sh\necho "swift: error while loading shared libraries: libncurses.so.6" >&2\nexit 127\n' >"$dir/bin/swift"
  fi
  chmod +x "$dir"/bin/*
}

# run NAME TARGET: make TARGET with the stubs first on PATH; output in $dir/out, status in $dir/rc.
run() {
  local dir=$work/$1
  # The Makefile exports its own PATH with /opt/swift appended: the stubs still come first.
  # SUDO is unset so that the Makefile decides.
  env -u SUDO PATH="$dir/bin:$PATH" make -s -C "$repo" --no-print-directory "$2" >"$dir/out" 2>&1
  echo $? >"$dir/rc"
}
calls() { cat "$work/$1/calls"; }
rc() { cat "$work/$1/rc"; }
has() { grep -q -- "$2" "$work/$1/calls"; }
says() { grep -q -- "$2" "$work/$1/out"; }
build_packages=$(make -s -C "$repo" --no-print-directory -f - print <<'EOF'
include Makefile
print: ; @echo $(BUILD_PACKAGES)
EOF
)
test_packages=$(make -s -C "$repo" --no-print-directory -f - print <<'EOF'
include Makefile
print: ; @echo $(TEST_PACKAGES)
EOF
)
[ -n "$build_packages" ] && [ -n "$test_packages" ] || { echo "FAILED: could not read the package lists from the Makefile"; exit 1; }

stubs root-nosudo 0 none no ok; run root-nosudo deps
check "root without sudo: make deps succeeds" test "$(rc root-nosudo)" = 0
check "root without sudo: sudo is never called" sh -c "! grep -q '^sudo' '$work/root-nosudo/calls'"
check "root without sudo: apt-get update" has root-nosudo "^apt-get update"
for p in $build_packages; do
  check "root without sudo: installs $p" sh -c "grep '^apt-get install' '$work/root-nosudo/calls' | grep -qw -- '$p'"
done
check "root without sudo: no Recommends" sh -c "grep '^apt-get install' '$work/root-nosudo/calls' | grep -q -- --no-install-recommends"

stubs user-sudo 1000 none yes ok; run user-sudo deps
check "user with sudo: make deps succeeds" test "$(rc user-sudo)" = 0
check "user with sudo: sudo apt-get update" has user-sudo "^sudo apt-get update"
check "user with sudo: sudo apt-get install" has user-sudo "^sudo apt-get install"

stubs user-nosudo 1000 none no ok; rm "$work/user-nosudo/bin/sudo"
# A PATH without any sudo: only the stubs and the directories of the tools make needs.
mkdir -p "$work/user-nosudo/sys"
for t in bash sh make env cat grep sed dpkg-query mktemp rm echo printf; do
  src=$(command -v "$t" 2>/dev/null) && [ ! -e "$work/user-nosudo/bin/$t" ] && ln -s "$src" "$work/user-nosudo/sys/$t"
done
env -u SUDO PATH="$work/user-nosudo/bin:$work/user-nosudo/sys" "$(command -v make)" -s -C "$repo" --no-print-directory deps \
  >"$work/user-nosudo/out" 2>&1; echo $? >"$work/user-nosudo/rc"
check "user without sudo: make deps fails" test "$(rc user-nosudo)" != 0
check "user without sudo: says to install as root" says user-nosudo "install as root"
check "user without sudo: apt-get is not called" sh -c "! grep -q '^apt-get' '$work/user-nosudo/calls'"

stubs root-done 0 all no ok; run root-done deps
check "everything installed: make deps succeeds" test "$(rc root-done)" = 0
check "everything installed: apt-get is not called" sh -c "! grep -q '^apt-get' '$work/root-done/calls'"

stubs root-broken 0 all no broken; run root-broken deps
check "broken toolchain: make deps fails" test "$(rc root-broken)" != 0
check "broken toolchain: shows the loader's error" says root-broken "libncurses.so.6"
check "broken toolchain: names the prerequisites" says root-broken "libncurses-dev"

stubs root-test 0 none no ok; run root-test test-deps
check "test-deps: succeeds" test "$(rc root-test)" = 0
for p in $build_packages $test_packages; do
  check "test-deps: installs $p" sh -c "grep '^apt-get install' '$work/root-test/calls' | grep -qw -- '$p'"
done

if [ "$failed" -gt 0 ]; then
  for d in "$work"/*/; do
    [ -f "$d/out" ] || continue
    echo "--- $(basename "$d"): rc=$(cat "$d/rc")"; sed 's/^/  out: /' "$d/out"; sed 's/^/  call: /' "$d/calls"
  done
fi
echo "install-deps: $passed passed, $failed failed"
[ "$failed" = 0 ]
