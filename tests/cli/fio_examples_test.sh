#!/usr/bin/env bash
# fio's own job files as a compatibility suite (issue 17): every job file of
# Debian's fio-examples package, as installed, through `storlab sim` with
# --max-runtime, must run or stop with a one-line reason naming the engine or
# option; the outcome of each is compared with tests/cli/fio_examples.expected
# (a file that ran and now stops, or stops for another reason, fails; so
# does a file that starts to run: update the list). Skips (77) when the
# package is not installed.
#   tests/cli/fio_examples_test.sh STORLAB_BINARY EXPECTED_LIST [--table]
# --table prints each file's outcome; FIO_EXAMPLES_DIR overrides where the
# job files are (default: the package's /usr/share/doc/fio/examples).
set -uo pipefail
storlab=$1
expected=$2
table=0
[[ ${3:-} == --table ]] && table=1
dir=${FIO_EXAMPLES_DIR:-/usr/share/doc/fio/examples}
shopt -s nullglob
files=("$dir"/*.fio "$dir"/*.fio.gz)
((${#files[@]})) || { echo "SKIP: no job files in $dir (Debian package fio-examples)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# Simulated time per job: short enough for ctest, long enough to issue I/O.
cap=50ms

# --max-runtime itself: a bad value is an error naming it; a capped run
# says so in its report.
source "$(dirname "$0")/lib.sh"
expect_error "--max-runtime=0" "--max-runtime: '0' must be more than 0" \
  "$storlab" sim --stack sata-ssd --max-runtime=0 --name=x --size=1m
expect_error "--max-runtime=fast" "--max-runtime: 'fast': expected a time" \
  "$storlab" sim --stack sata-ssd --max-runtime=fast --name=x --size=1m
"$storlab" sim --stack sata-ssd --max-runtime=10ms --name=x --size=1g --rw=randread \
  > "$tmp/capped" 2>&1 || fail "a capped run failed: $(head -c 300 "$tmp/capped")"
tail -1 "$tmp/capped" | grep -q '^storlab sim: --max-runtime=10ms capped 1 of 1 jobs .*not a full run$' ||
  fail "a capped run does not say so on its last line: $(tail -1 "$tmp/capped")"

# The outcome of one run as "CLASS KEY": runs, or the reason class of its
# error line and the engine, option or variable it names.
classify() {  # RC STDERR_FILE
  local rc=$1 err=$2 line
  line=$(grep -m1 -v '^storlab sim: note\|^note:\|^storlab sim: --max-runtime' "$err")
  if ((rc == 0)); then echo "runs -"; return; fi
  local re_q="'([^']*)'"
  if [[ $line =~ option\ \'ioengine\':\ $re_q\ has\ no\ meaning ]]; then
    echo "no-meaning ioengine=${BASH_REMATCH[1]}"
  elif [[ $line =~ option\ $re_q:\ $re_q\ has\ no\ meaning ]]; then
    echo "no-meaning ${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
  elif [[ $line =~ option\ $re_q\ has\ no\ meaning ]]; then
    echo "no-meaning ${BASH_REMATCH[1]}"
  elif [[ $line =~ option\ $re_q\ is\ a\ fio\ option\ that\ storlab\ sim\ does\ not\ support ]]; then
    echo "unsupported ${BASH_REMATCH[1]}"
  elif [[ $line =~ option\ $re_q:\ $re_q\ .*(is\ not\ supported|is\ not\ one\ of) ]]; then
    echo "unsupported ${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
  elif [[ $line =~ environment\ variable\ $re_q\ is\ not\ set ]]; then
    echo "env ${BASH_REMATCH[1]}"
  elif [[ $line =~ unknown\ option\ $re_q ]]; then
    echo "unknown ${BASH_REMATCH[1]}"
  elif [[ $line =~ need\ size=\ or\ filesize=\ \(file\ $re_q ]]; then
    echo "no-device ${BASH_REMATCH[1]}"
  elif [[ $line =~ err=\ *([0-9]+) ]]; then
    echo "job-error err=${BASH_REMATCH[1]}"
  else
    echo "other $(tr ' ' '_' <<< "${line:0:60}")"
  fi
}

declare -A want
while read -r f class key; do
  [[ -z $f || $f == \#* ]] && continue
  want[$f]="$class $key"
done < "$expected"

errors=0
declare -A count
for f in "${files[@]}"; do
  name=$(basename "$f")
  job=$f
  if [[ $f == *.gz ]]; then
    name=${name%.gz}
    job="$tmp/$name"
    gzip -dc "$f" > "$job" || fail "$f: cannot decompress"
  fi
  # A clean environment: job files that want ${VAR} must say so the same
  # way everywhere. The current directory takes the logs some jobs write.
  (cd "$tmp" && env -i PATH="$PATH" timeout 60 "$storlab" sim --stack sata-ssd \
    --max-runtime="$cap" --output-format=json "$job" > "$tmp/out" 2> "$tmp/err")
  rc=$?
  ((rc == 124)) && fail "$name: still running after 60 s of wall time"
  ((rc > 1)) && fail "$name: exit status $rc (a crash?): $(head -c 300 "$tmp/err")"
  got=$(classify "$rc" "$tmp/err")
  if [[ $got == "runs -" ]]; then
    # A run that says it ran: fio's JSON with every job, and the cap shown.
    grep -q '"jobs" : \[' "$tmp/out" || fail "$name: exit 0 but no JSON report"
    # ... that the cap held (in-flight I/O and end_fsync may finish after
    # it, as in fio) and that the report says it was capped.
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
# Per job clone (a group_reporting entry sums the runtimes of its members).
runtimes = [(j["io_end_ns"] - j["epoch_ns"]) / 1e6 for j in d["storlab"]["jobs"]]
sys.exit(0 if d["storlab"].get("capped") and max(runtimes) <= 100 else 1)' "$tmp/out" ||
      fail "$name: not capped at $cap: $(grep -m4 '"job_runtime"\|"capped"' "$tmp/out")"
  fi
  class=${got%% *}
  count[$class]=$((${count[$class]:-0} + 1))
  ((table)) && printf '%-32s %s\n' "$name" "$got"
  # Every stop is one clear line: no "other" message shapes.
  [[ $class == other ]] && { echo "$name: unexpected message: $(head -1 "$tmp/err")" >&2; }
  if [[ -z ${want[$name]:-} ]]; then
    echo "FAIL: $name: not in $expected (got: $got)" >&2
    errors=$((errors + 1))
  elif [[ ${want[$name]} != "$got" ]]; then
    echo "FAIL: $name: expected '${want[$name]}', got '$got': $(grep -m1 -v '^storlab sim: note\|^note:' "$tmp/err" | head -c 300)" >&2
    errors=$((errors + 1))
  fi
  unset "want[$name]"
done
for f in "${!want[@]}"; do
  echo "FAIL: $f is in $expected but not in $dir" >&2
  errors=$((errors + 1))
done
summary=""
for c in $(printf '%s\n' "${!count[@]}" | sort); do summary+=" $c=${count[$c]}"; done
echo "fio examples: ${#files[@]} job files:$summary"
((errors == 0)) || fail "$errors job files differ from $expected"
echo PASS
