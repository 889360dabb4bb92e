#!/usr/bin/env bash
# The whole test suite under a sanitizer: scripts/sanitizers.sh asan|tsan [swift test options]
#
#   asan  AddressSanitizer (+ LeakSanitizer), built in .build/asan
#   tsan  ThreadSanitizer, built in .build/tsan
#
# The end-to-end tests start uncenterd and unctl from the same build directory, so the
# daemon and the CLI run sanitized too.  Their stderr goes to per-test files that the
# tests delete, so every process writes its sanitizer reports to
# .build/<kind>/sanitizer-reports/<kind>.<pid> instead (log_path); the script prints
# them, and fails when the tests fail or when any report remains after suppressions
# (scripts/lsan.supp, scripts/tsan.supp; each entry says why it is there).
#
# UNCENTER_SANITIZER=<kind> tells the tests that timing and memory figures mean
# nothing here (the slow-reader test then reports its latency and RSS without
# asserting the bounds).
set -uo pipefail
kind=${1:-}
case "$kind" in
  asan) sanitize=address ;;
  tsan) sanitize=thread ;;
  *) echo "usage: $0 asan|tsan [swift test options]" >&2; exit 2 ;;
esac
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
export PATH="$PATH:/opt/swift/usr/bin"
scratch=".build/$kind"
reports="$root/$scratch/sanitizer-reports"

echo "== swift build --build-tests --sanitize=$sanitize --scratch-path $scratch"
swift build --build-tests --sanitize="$sanitize" --scratch-path "$scratch" || {
  echo "sanitizers.sh: the $kind build failed" >&2
  exit 1
}

rm -rf "$reports"
mkdir -p "$reports"
export UNCENTER_SANITIZER="$kind"
# Symbolized reports (llvm-symbolizer ships with the toolchain).
export ASAN_SYMBOLIZER_PATH=/opt/swift/usr/bin/llvm-symbolizer
export TSAN_SYMBOLIZER_PATH=/opt/swift/usr/bin/llvm-symbolizer
export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:abort_on_error=0:strict_string_checks=0:detect_stack_use_after_return=0"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="log_path=$reports/tsan:suppressions=$root/scripts/tsan.supp:print_suppressions=0:halt_on_error=0:second_deadlock_stack=1"

echo "== swift test --skip-build --sanitize=$sanitize --scratch-path $scratch $*"
swift test --skip-build --sanitize="$sanitize" --scratch-path "$scratch" "$@" 2>&1 | tee "$root/$scratch/test.log"
status=${PIPESTATUS[0]}

summary=$(grep -E "^\s*Executed [0-9]+ tests?" "$root/$scratch/test.log" | tail -1)
echo "== tests: ${summary:-no summary} (exit $status)"
shopt -s nullglob
found=0
for f in "$reports"/*; do
  # A file can hold only suppressed-leak statistics; count real reports.
  if grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|WARNING: ThreadSanitizer|SUMMARY: (AddressSanitizer|ThreadSanitizer|LeakSanitizer)" "$f"; then
    found=$((found + 1))
    exe=$(grep -m1 -oE "(uncenterd|unctl|uncenterPackageTests\.xctest)" "$f" || true)
    echo "---- report $f (${exe:-?})"
    grep -E "^(==[0-9]+==)?(ERROR|WARNING|SUMMARY)|^    #[0-9]+ " "$f" | head -40
  fi
done
echo "== $kind: $found report file(s) in $reports"
[ "$status" -eq 0 ] && [ "$found" -eq 0 ]
