#!/usr/bin/env bash
# Runs clang-tidy (the checks in .clang-tidy, every one an error) on the
# sources of sim/, workloads/, cli/, nbd/ and fusefs/ (not tests), in parallel.
#
#   bash tests/tidy.sh [-p BUILD] [-j JOBS] [FILE...]
#
# BUILD is a clang build directory with compile_commands.json (default
# build/fuzz; `cmake --preset fuzz` or `--preset sanitize` makes one). FILEs
# default to every .cc of those folders under git. Exits non-zero when
# clang-tidy reports anything; fix it, or silence one line with
# `// NOLINT(check-name)` and the reason beside it.
set -euo pipefail
src=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$src"
build=build/fuzz
jobs=$(nproc)
while (($#)); do
  case $1 in
    -p) build=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -h | --help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
tidy=$(command -v clang-tidy-14 || true)
if [[ -z $tidy ]]; then
  echo "tidy.sh: clang-tidy-14 not found (apt-get install clang-tidy)" >&2
  exit 2
fi
if [[ ! -f $build/compile_commands.json ]]; then
  echo "tidy.sh: no $build/compile_commands.json (cmake --preset fuzz first, or -p BUILD)" >&2
  exit 2
fi
if (($#)); then
  files=("$@")
else
  # Only files the build compiles (a glob picks up new files at configure).
  mapfile -t files < <(git ls-files -- 'sim/*.cc' 'workloads/*.cc' 'cli/*.cc' 'nbd/*.cc' \
    'fusefs/*.cc' | while read -r f; do
    grep -qF "\"file\": \"$src/$f\"" "$build/compile_commands.json" && echo "$f"
  done)
fi
((${#files[@]})) || { echo "tidy.sh: no files"; exit 0; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
set +e
printf '%s\0' "${files[@]}" |
  xargs -0 -P "$jobs" -n 1 "$tidy" -p "$build" --quiet >"$log" 2>&1
rc=$?
set -e
# clang-tidy prints "N warnings generated." for warnings in system headers it
# filtered out: noise.
grep -vE '^[0-9]+ warnings? generated\.$|^Suppressed [0-9]+ warnings|^Use -header-filter' "$log" || true
nfind=$({ grep -E ": (warning|error): " "$log" || true; } | sort -u | wc -l)
echo "tidy.sh: ${#files[@]} files, $nfind findings, $(($(date +%s) - start))s"
((rc == 0 && nfind == 0))
