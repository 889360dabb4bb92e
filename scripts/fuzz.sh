#!/usr/bin/env bash
# Builds every fuzz harness (Fuzz/build.sh) and runs each for SECONDS (default 60) on a
# copy of its seed corpus.  Fails when a harness crashes or finds an invariant
# violation (the input is kept in Fuzz/crashes/<harness>/), or when libFuzzer does not
# print its "Loaded N modules (... inline 8-bit counters)" line: a build without
# coverage instrumentation must not pass silently.
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(framer json center requests)
case $SECONDS_EACH in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [HARNESS...]" >&2; exit 2 ;; esac

Fuzz/build.sh "${HARNESSES[@]}" 2> >(grep -v "Cannot export local symbol" >&2) || { echo "fuzz: build failed" >&2; exit 1; }

WORK=$(mktemp -d /tmp/uncenter-fuzz.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# The Swift runtime's backtracer reads other threads' stacks, which AddressSanitizer
# reports as a stack-buffer-underflow of its own; libFuzzer prints the stack instead.
export SWIFT_BACKTRACE=enable=no
failed=0
summary=()
for h in "${HARNESSES[@]}"; do
  corpus=$WORK/corpus-$h
  artifacts=$WORK/artifacts-$h/
  mkdir -p "$corpus" "$artifacts"
  cp Fuzz/corpus/"$h"/* "$corpus"/ 2>/dev/null || true
  log=$WORK/$h.log
  echo "== $h: ${SECONDS_EACH}s on $(ls "$corpus" | wc -l) seeds"
  # FUZZ_SEED fixes libFuzzer's random seed (CI uses one, so a run explores the same
  # inputs as the last local run of the same binary and corpus).
  .build/fuzz/"$h" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
    ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
    -artifact_prefix="$artifacts" "$corpus" >"$log" 2>&1
  rc=$?
  status=ok
  if ! grep -qE "Loaded [0-9]+ modules +\([0-9]+ inline 8-bit counters\)" "$log"; then
    status="NOT INSTRUMENTED (no 'inline 8-bit counters' line)"
    failed=1
  fi
  grep -E "Loaded [0-9]+ modules +\(" "$log" | head -1
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" | tail -1)
  [ -n "$runs" ] || runs=$(grep -oE "^Done [0-9]+ runs" "$log" | grep -oE "[0-9]+" | tail -1)
  if [ $rc -ne 0 ] || ls "$artifacts" | grep -q .; then
    status="FAILED (exit $rc)"
    failed=1
    mkdir -p Fuzz/crashes/"$h"
    for f in "$artifacts"*; do
      [ -e "$f" ] || continue
      cp "$f" Fuzz/crashes/"$h"/
      echo "   kept Fuzz/crashes/$h/$(basename "$f")"
    done
    cp "$log" Fuzz/crashes/"$h"/last-run.log
    grep -E "Fatal error|ERROR: |^ +#[0-9]+ " "$log" | head -40
  fi
  echo "   $h: ${runs:-?} executions, $status"
  summary+=("$h: ${runs:-?} executions, $status")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $failed
