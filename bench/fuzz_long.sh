#!/usr/bin/env bash
# Runs every fuzz target for a long time (an hour each by default), niced,
# a few at a time, and prints one summary line per target and what each
# found. Longer runs than CI's 40 s find the inputs CI never reaches.
#
#   bash bench/fuzz_long.sh [SECONDS] [PARALLEL] [TARGET...]
#
# SECONDS per target (default 3600), PARALLEL targets at once (default 1; a
# fuzzer uses one core). Builds build/fuzz first (tests/fuzz/run.sh does).
# The corpora grow in build/fuzz/fuzz-corpus/TARGET between runs; new crash
# inputs land in build/fuzz/fuzz-artifacts/TARGET with how to reproduce
# them (docs/quality.md: fix the owning code, then copy the input to
# tests/fuzz/regression/TARGET/). Exits non-zero if any target crashed.
set -uo pipefail
src=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
seconds=${1:-3600}
parallel=${2:-1}
shift $(($# > 2 ? 2 : $#))
if (($#)); then
  targets=("$@")
else
  mapfile -t targets < <(bash "$src/tests/fuzz/run.sh" --list)
fi
build=${STORLAB_FUZZ_BUILD:-$src/build/fuzz}
logs=$build/fuzz-long
mkdir -p "$logs"
# Build once, before the targets run side by side.
for t in "${targets[@]}"; do bash "$src/tests/fuzz/run.sh" "$t" 1 >/dev/null 2>&1 || true; done

echo "fuzz_long: ${#targets[@]} targets x ${seconds}s, $parallel at a time; logs in $logs"
running=0
for t in "${targets[@]}"; do
  (FUZZ_QUIET=1 nice -n 10 bash "$src/tests/fuzz/run.sh" "$t" "$seconds" >"$logs/$t.out" 2>&1
   echo $? >"$logs/$t.rc") &
  running=$((running + 1))
  if ((running >= parallel)); then
    wait -n
    running=$((running - 1))
  fi
done
wait
rc=0
for t in "${targets[@]}"; do
  head -1 "$logs/$t.out"
  if [[ $(cat "$logs/$t.rc" 2>/dev/null) != 0 ]]; then
    rc=1
    sed -n '2,$p' "$logs/$t.out"
  fi
done
exit $rc
