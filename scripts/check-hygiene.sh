#!/usr/bin/env bash
# Repository checks run by `make lint`:
#
#  1. No two paths differ only in case (`Main.swift` beside `main.swift`): a checkout on a
#     case-insensitive file system, macOS's default, would keep only one of them.
#  2. No text cites documents that are not in the repository (a specification's sections
#     or a style guide's numbered habits by number): comments point to proto-docs/,
#     docs/ARCHITECTURE.md, README.md or BENCHMARKS.md, or state the rule themselves.
#  3. No measured figures (instructions, ns, µs, rps) in comments of the code, tests and
#     scripts: they rot with the next compiler or machine.  A comment says why the code is
#     shaped as it is and points to BENCHMARKS.md, which keeps the figures.
#
# Uses the tracked files (`git ls-files`) in a git checkout, else every file outside .build.
set -euo pipefail
cd "$(dirname "$0")/.."

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files() { git ls-files; }
else
  files() { find . -path ./.build -prune -o -type f -print | sed 's|^\./||'; }
fi

failed=0

clashes=$(files | sort -f | uniq -di)
if [ -n "$clashes" ]; then
  echo "check-hygiene: paths that differ only in case (rename one of each):" >&2
  while IFS= read -r path; do files | grep -ixF -- "$path" | sed 's/^/  /' >&2; done <<<"$clashes"
  failed=1
fi

# The patterns are written so that this file does not match them itself.
pattern='SPEC[ ]§|DESIGN[ ]habit|(SPEC|DESIGN)[.]md|[Hh]abit[ ][0-9]'
cited=$(files | tr '\n' '\0' | xargs -0 grep -InE -- "$pattern" 2>/dev/null || true)
if [ -n "$cited" ]; then
  echo "check-hygiene: references to documents outside the repository (cite proto-docs/," >&2
  echo "docs/ARCHITECTURE.md, README.md or BENCHMARKS.md instead, or state the rule):" >&2
  echo "$cited" | cut -c1-200 | sed 's/^/  /' >&2
  failed=1
fi

figures=$(files | grep -E '^(Sources|Tests|Fuzz|scripts|Bench|Examples)/' | tr '\n' '\0' |
  xargs -0 grep -InE -- '(//|#).*[0-9] ?(k|M)? ?(instructions|ns|µs|rps|req/s)\b' 2>/dev/null || true)
if [ -n "$figures" ]; then
  echo "check-hygiene: measured figures in comments (move them to BENCHMARKS.md, say why):" >&2
  echo "$figures" | cut -c1-200 | sed 's/^/  /' >&2
  failed=1
fi

[ "$failed" = 0 ] && echo "check-hygiene: ok (no case clashes, no references to outside documents, no figures in comments)"
exit "$failed"
