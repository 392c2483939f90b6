#!/usr/bin/env bash
# Runs one fuzz target for a fixed time and reports what it did.
#
#   bash tests/fuzz/run.sh TARGET SECONDS [libFuzzer flags...]
#   bash tests/fuzz/run.sh --list
#
# TARGET is a name from tests/fuzz/CMakeLists.txt (units, stack, ...). The
# target is built first (in $STORLAB_FUZZ_BUILD, default build/fuzz, with the
# `fuzz` preset: clang, libFuzzer, ASan + UBSan). New inputs go to
# BUILD/fuzz-corpus/TARGET (kept between runs); the seeds are the folders in
# BUILD/tests/fuzz/TARGET.seeds. Prints executions per second, coverage and
# corpus growth; on a crash, the sanitizer report, the saved input and the
# commands to reproduce it, and exits non-zero.
#
# Environment: FUZZ_SEED=N for a repeatable run (CI uses a fixed seed);
# FUZZ_QUIET=1 to print only the summary line.
set -euo pipefail
src=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
build=${STORLAB_FUZZ_BUILD:-$src/build/fuzz}
[[ $build = /* ]] || build=$PWD/$build

if [[ ${1:-} == --list ]]; then
  sed -n 's/^storlab_fuzz_target(\([a-z_0-9]*\).*/\1/p' "$src/tests/fuzz/CMakeLists.txt"
  exit 0
fi
if (($# < 2)) || ! [[ $2 =~ ^[0-9]+$ ]]; then
  sed -n '2,17s/^# \{0,1\}//p' "$0" >&2
  exit 2
fi
target=$1
seconds=$2
shift 2

if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$src" -B "$build" --preset fuzz >/dev/null
fi
ninja -C "$build" "${target}_fuzzer" >/dev/null || {
  echo "run.sh: cannot build ${target}_fuzzer in $build (is '$target' a target? --list)" >&2
  exit 2
}
bin=$build/tests/fuzz/${target}_fuzzer
work=$build/fuzz-corpus/$target
artifacts=$build/fuzz-artifacts/$target
mkdir -p "$work" "$artifacts"
mapfile -t seeds < <(while read -r d; do [[ -d $d ]] && echo "$d"; done <"$build/tests/fuzz/$target.seeds")

# A dictionary: the target's own (tests/fuzz/dict/TARGET.dict) plus every
# identifier and quoted string of its seeds (keys, type names, units), so the
# fuzzer writes "capacity" and "queue_depth" without having to guess them.
dict=$build/fuzz-corpus/$target.dict
{
  [[ -f $src/tests/fuzz/dict/$target.dict ]] && cat "$src/tests/fuzz/dict/$target.dict"
  if ((${#seeds[@]})); then
    find "${seeds[@]}" -type f -size -64k -print0 |
      xargs -0 -r grep -ohE '[A-Za-z_][A-Za-z0-9_]{2,30}|"[^"\\]{1,30}"' 2>/dev/null |
      sed 's/^"//; s/"$//' | sort -u | head -n 2000 | sed 's/.*/"&"/' || true  # binary seeds: none
  fi
} >"$dict"

flags=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
  -artifact_prefix="$artifacts/")
[[ -s $dict ]] && flags+=(-dict="$dict")
[[ -n ${FUZZ_SEED:-} ]] && flags+=(-seed="$FUZZ_SEED")
[[ -f $src/tests/fuzz/$target.options ]] && mapfile -t -O ${#flags[@]} flags < <(grep -v '^#' "$src/tests/fuzz/$target.options")

log=$build/fuzz-artifacts/$target.log
mapfile -t before < <(find "$artifacts" -type f | sort)
start=$(date +%s)
set +e
"$bin" "${flags[@]}" "$@" "$work" "${seeds[@]}" >"$log" 2>&1
rc=$?
set -e
elapsed=$(($(date +%s) - start))

stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
last() { { grep -oE "$1 [0-9]+" "$log" || true; } | tail -1 | cut -d' ' -f2; }
execs=$(stat number_of_executed_units)
eps=$(stat average_exec_per_sec)
cov=$(last cov:)
ft=$(last ft:)
printf 'fuzz %-8s %4ss  %9s execs  %6s exec/s  cov %5s  ft %6s  corpus %5s  new %4s  rss %4sMB\n' \
  "$target" "$elapsed" "${execs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" \
  "$(find "$work" -type f | wc -l)" "$(stat new_units_added)" "$(stat peak_rss_mb)"

if ((rc != 0)); then
  echo "---- $target: libFuzzer exited $rc; the report (full log: $log):"
  sed -n '/invariant violated\|^==[0-9]*==.*ERROR\|^INFO: libFuzzer: \|ALARM\|out-of-memory/,$p' "$log" |
    grep -vE '^#[0-9]|^ +#[0-9]+ 0x[0-9a-f]+ in (fuzzer::|__libc|_start|main )' | head -60
  comm -13 <(printf '%s\n' "${before[@]}") <(find "$artifacts" -type f | sort) | while read -r f; do
    echo "---- input: $f"
    head -c 600 "$f" | cat -v
    echo
    echo "reproduce: $bin $f"
    echo "      or:  $build/tests/fuzz/${target}_replay $f   (any build)"
    echo "keep it:   cp $f $src/tests/fuzz/regression/$target/NAME  # with the fix"
  done
  exit 1
fi
[[ ${FUZZ_QUIET:-0} == 1 ]] || echo "log: $log"
