#!/usr/bin/env bash
# Builds the libFuzzer harnesses with plain swiftc (SwiftPM's sanitizer builds are not
# used): each module's sources are compiled with -sanitize=fuzzer,address.
#
#   Fuzz/build.sh [HARNESS...]     (default: framer json center requests)
#
# Output: .build/fuzz/<harness>, static modules in .build/fuzz/lib.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
SWIFTC=${SWIFTC:-swiftc}
OUT=.build/fuzz
LIB=$OUT/lib
mkdir -p "$LIB"
FLAGS=(-parse-as-library -sanitize=fuzzer,address -O -g -swift-version 6)
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(framer json center requests)

run() { echo "+ $*" >&2; "$@"; }

# A static library + module for one Sources/ module (kept while newer than its sources).
module() {
  local name=$1; shift
  if [ -f "$LIB/lib$name.a" ] && [ -z "$(find "Sources/$name" Fuzz/build.sh -newer "$LIB/lib$name.a" -print -quit)" ]; then
    echo "(lib$name.a is up to date)" >&2; return 0
  fi
  run "$SWIFTC" "${FLAGS[@]}" -module-name "$name" -I "$LIB" "$@" \
    -emit-module -emit-module-path "$LIB/$name.swiftmodule" \
    -emit-library -static -o "$LIB/lib$name.a"
}

# UNServer whole: the harness drives its Dispatcher; the loop-side files compile against
# the UVLoop and UNDesktop libraries built below, and are never run.
unserver_sources() {
  find Sources/UNServer -name '*.swift' | sort
}

built_lib=""
need_libs() {
  [ -z "$built_lib" ] || return 0
  module JSONRPC Sources/JSONRPC/*.swift
  module UNEndpoint Sources/UNEndpoint/*.swift
  module UNModel Sources/UNModel/*.swift
  # The wire shapes' descriptor tables, shared by the daemon and its clients.
  module UNProtocol $(find Sources/UNProtocol -name '*.swift' | sort)
  module UNStore -I Sources/CSQLite Sources/UNStore/*.swift
  # The desktop bridge's types (options, counters) are named by UNServer's configuration
  # and stats; the bridge runs on the libuv loop.
  module UVLoop -I Sources/CLibUV Sources/UVLoop/*.swift
  module UNDesktop -I Sources/CLibUV -I Sources/CSystemd Sources/UNDesktop/*.swift
  built_lib=1
}

for h in "${HARNESSES[@]}"; do
  case $h in
    framer|json)
      # The harness is compiled into the JSONRPC module itself.
      run "$SWIFTC" "${FLAGS[@]}" -module-name JSONRPC Sources/JSONRPC/*.swift "Fuzz/$h/main.swift" -o "$OUT/$h" ;;
    center)
      need_libs
      run "$SWIFTC" "${FLAGS[@]}" -module-name FuzzCenter -I "$LIB" "Fuzz/$h/main.swift" \
        -L "$LIB" -lUNModel -o "$OUT/$h" ;;
    requests)
      need_libs
      # The harness joins the UNServer module so it can use its internal Dispatcher.
      # ReloadCheck.swift (the reload-equals-live check) and Dispatcher+Copies.swift (a
      # request with attachments answered in one call) are shared with the unit tests.
      run "$SWIFTC" "${FLAGS[@]}" -D FUZZ_HARNESS -module-name UNServer -I "$LIB" -I Sources/CSQLite -I Sources/CFileIdentity \
        -I Sources/CLibUV -I Sources/CSystemd \
        $(unserver_sources) Tests/UNServerTests/ReloadCheck.swift Tests/UNServerTests/Dispatcher+Copies.swift "Fuzz/$h/main.swift" \
        -L "$LIB" -lJSONRPC -lUNDesktop -lUVLoop -lUNEndpoint -lUNModel -lUNProtocol -lUNStore -lsqlite3 -luv -o "$OUT/$h" ;;
    *) echo "unknown harness: $h" >&2; exit 2 ;;
  esac
done
