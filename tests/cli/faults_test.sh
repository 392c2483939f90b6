#!/usr/bin/env bash
# storlab sim --fault 'TIME: COMMAND' (issue 18, item 2): the note each
# fault prints, a RAID5 rebuild that slows a job down, a second failure
# during the rebuild that fails the job's I/O, a corrupted block the oracle
# catches on read, and bad --fault arguments refused before the run.
#   tests/cli/faults_test.sh STORLAB_BINARY
set -uo pipefail
storlab=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
# expect_refused WHAT PATTERN CMD...: expect_error, and the run never started.
expect_refused() {
  expect_error "$@"
  [[ ! -s $tmp/out ]] || fail "$1: the run started: $(head -c 200 "$tmp/out")"
}
bw() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['jobs'][0]['read']['bw_bytes'])" "$1"; }

# A RAID5 of four small disks, slow enough that a rebuild competes.
cat > "$tmp/raid5.toml" <<'TOML'
[node.array]
type = "raid"
level = 5
children = ["disk"]
speed_limit_min = "20MB/s"
speed_limit_max = "200MB/s"

[node.disk]
type = "ram"
capacity = "256MiB"
latency = "100us"
bandwidth = "100MB/s"
queue_depth = 1
count = 4
TOML
job=(--stack "$tmp/raid5.toml" --name=r --rw=randread --bs=64k --size=128m --runtime=4
     --time_based --ioengine=libaio --iodepth=4 --direct=1 --output-format=json)

"$storlab" sim "${job[@]}" > "$tmp/healthy.json" 2> "$tmp/err" || fail "healthy: $(cat "$tmp/err")"
"$storlab" sim "${job[@]}" --fault '1s: fail disk.1' --fault 'at 1s: replace disk.1' \
  > "$tmp/rebuild.json" 2> "$tmp/err" || fail "rebuild: $(cat "$tmp/err")"
grep -q "^storlab sim: at 1.000s: fail disk.1: 'disk.1' has failed: every request to it gets EIO; 'array' above it was told$" "$tmp/err" ||
  fail "rebuild: no note for fail: $(cat "$tmp/err")"
grep -q "^storlab sim: at 1.000s: replace disk.1: 'disk.1' is back in its slot" "$tmp/err" ||
  fail "rebuild: no note for replace: $(cat "$tmp/err")"
healthy=$(bw "$tmp/healthy.json") rebuild=$(bw "$tmp/rebuild.json")
(( rebuild * 10 < healthy * 9 )) || fail "the rebuild did not slow the job: $rebuild vs $healthy B/s"
"$storlab" sim "${job[@]}" --fault '1s: fail disk.1' --fault 'at 1s: replace disk.1' \
  > "$tmp/again.json" 2> /dev/null
cmp -s "$tmp/rebuild.json" "$tmp/again.json" || fail "two runs with faults differ"

# The same faults from the stack file's [stack] faults: the same run, byte
# for byte, and `stacks show` lists them.
{ printf '[stack]\nfaults = ["1s: fail disk.1", "at 1s: replace disk.1"]\n'; cat "$tmp/raid5.toml"; } \
  > "$tmp/scheduled.toml"
"$storlab" sim "${job[@]/$tmp\/raid5.toml/$tmp/scheduled.toml}" > "$tmp/scheduled.json" \
  2> "$tmp/err" || fail "stack faults: $(cat "$tmp/err")"
grep -q "^storlab sim: at 1.000s: fail disk.1: 'disk.1' has failed" "$tmp/err" ||
  fail "stack faults: no note for fail: $(cat "$tmp/err")"
python3 - "$tmp/rebuild.json" "$tmp/scheduled.json" <<'PY' || fail "stack faults: not the --fault run"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d['storlab'].pop('stack')
    for k in ('timestamp', 'timestamp_ms', 'time'):
        d.pop(k, None)
assert a['jobs'] == b['jobs'] and a['storlab']['nodes'] == b['storlab']['nodes']
PY
"$storlab" stacks show "$tmp/scheduled.toml" > "$tmp/show" 2> "$tmp/err" || fail "stacks show: $(cat "$tmp/err")"
grep -q '^  "1s: fail disk.1",  # .*scheduled.toml:2' "$tmp/show" || fail "stacks show: $(cat "$tmp/show")"
printf '[stack]\nfaults = ["1s: fail disk.9"]\n' > "$tmp/bad.toml"
cat "$tmp/raid5.toml" >> "$tmp/bad.toml"
expect_refused "stack fault, no node" "bad.toml:2: \[stack\] faults '1s: fail disk.9': fail: no node 'disk.9'" \
  "$storlab" sim "${job[@]/$tmp\/raid5.toml/$tmp/bad.toml}"
expect_error "stacks show, no node" "\[stack\] faults '1s: fail disk.9'" "$storlab" stacks show "$tmp/bad.toml"
printf '[stack]\nfaults = ["soon: fail disk.1"]\n' > "$tmp/bad.toml"
cat "$tmp/raid5.toml" >> "$tmp/bad.toml"
expect_refused "stack fault, bad time" "bad.toml:2: \[stack\] faults 'soon: fail disk.1': the time" \
  "$storlab" sim "${job[@]/$tmp\/raid5.toml/$tmp/bad.toml}"
printf '[stack]\nfaults = "1s: fail disk.1"\n' > "$tmp/bad.toml"
cat "$tmp/raid5.toml" >> "$tmp/bad.toml"
expect_refused "stack faults, not a list" "bad.toml:2: \[stack\] key 'faults': expected a list" \
  "$storlab" sim "${job[@]/$tmp\/raid5.toml/$tmp/bad.toml}"
expect_refused "stack faults with --repeat" "\[stack\] faults: one run of fio jobs" \
  "$storlab" sim "${job[@]/$tmp\/raid5.toml/$tmp/scheduled.toml}" --repeat 2

# A second failure during the rebuild: the array fails, the job gets EIO.
"$storlab" sim "${job[@]}" --fault '1s: fail disk.1' --fault '1s: replace disk.1' \
  --fault '2s: fail disk.3' > "$tmp/second.json" 2> "$tmp/err"
rc=$?
[[ $rc == 1 ]] || fail "second failure: exit status $rc, not 1"
grep -q "fio: io_u error on file .*: Input/output error: read" "$tmp/err" ||
  fail "second failure: no I/O error: $(cat "$tmp/err")"
python3 - "$tmp/second.json" <<'PY' || fail "second failure: the job's error"
import json, sys
j = json.load(open(sys.argv[1]))['jobs'][0]
assert j['error'] == 5, j['error']
PY

# detach / attach, delay: notes, and the run goes on; a replace that cannot
# run is a note.
"$storlab" sim "${job[@]}" --fault '1s: detach disk.2' --fault '1500ms: attach disk.2' \
  --fault '2s: delay disk.0 5ms for 500ms' --fault '3s: replace disk.0' \
  > "$tmp/misc.json" 2> "$tmp/err"
grep -q "^storlab sim: at 1.000s: detach disk.2: 'disk.2' is detached" "$tmp/err" || fail "detach: $(cat "$tmp/err")"
grep -q "^storlab sim: at 1.500s: attach disk.2: 'disk.2' is attached again" "$tmp/err" || fail "attach: $(cat "$tmp/err")"
grep -q "^storlab sim: at 2.000s: delay disk.0 5ms for 500ms: requests that reach 'disk.0' in the next 500ms wait 5ms" "$tmp/err" ||
  fail "delay: $(cat "$tmp/err")"
grep -q "^storlab sim: at 3.000s: replace disk.0: error: 'disk.0' has not failed (fail it first)$" "$tmp/err" ||
  fail "replace: $(cat "$tmp/err")"
"$storlab" sim "${job[@]}" --fault '60s: fail disk.1' > /dev/null 2> "$tmp/err" ||
  fail "late fault: $(cat "$tmp/err")"
grep -q "note: --fault '60s: fail disk.1' did not run: the jobs ended at 4.00[0-9]s" "$tmp/err" ||
  fail "late fault: no note: $(cat "$tmp/err")"

# A corrupted block: the oracle (there with a power cut) catches it on read.
cat > "$tmp/ram.toml" <<'TOML'
[node.d]
type = "ram"
capacity = "64MiB"
latency = "50us"
TOML
rw=(--stack "$tmp/ram.toml" --name=v --rw=randread --bs=4k --size=1m --runtime=2 --time_based
    --ioengine=libaio --iodepth=4 --direct=1 --output-format=json --power-cut-at=1900ms)
"$storlab" sim "${rw[@]}" > "$tmp/clean.json" 2> "$tmp/err" || fail "clean: $(cat "$tmp/err")"
"$storlab" sim "${rw[@]}" --fault '1s: corrupt d 512KiB' \
  > "$tmp/corrupt.json" 2> "$tmp/err"
rc=$?
[[ $rc == 1 ]] || fail "corrupt: exit status $rc, not 1: $(cat "$tmp/err")"
python3 - "$tmp/clean.json" "$tmp/corrupt.json" <<'PY' || fail "corrupt: storlab.oracle"
import json, sys
clean = json.load(open(sys.argv[1]))['storlab']['oracle']
o = json.load(open(sys.argv[2]))['storlab']['oracle']
assert clean['read_violations'] == 0 and clean['violations'] == 0, clean
assert o['read_violations'] > 0, o
r = o['read_violation_blocks'][0]
assert r['offset'] == 512 * 1024 and r['what'] == 'a read returned stale or foreign data', r
assert o['violations'] == 1 and o['losses'][0]['offset'] == 512 * 1024, o  # the cut's check too
PY

# Bad --fault arguments: refused before the run, naming the argument.
expect_refused "no colon" "--fault 'fail disk.1': expected 'TIME: COMMAND'" \
  "$storlab" sim "${job[@]}" --fault 'fail disk.1'
expect_refused "bad time" "--fault 'soon: fail disk.1': the time: " \
  "$storlab" sim "${job[@]}" --fault 'soon: fail disk.1'
expect_refused "unknown command" "--fault '1s: frob disk.1': control: unknown command 'frob'" \
  "$storlab" sim "${job[@]}" --fault '1s: frob disk.1'
expect_refused "bad delay" "--fault '1s: delay disk.1 5ms': control: delay: expected 4 words" \
  "$storlab" sim "${job[@]}" --fault '1s: delay disk.1 5ms'
expect_refused "power-cut" "a power cut is --power-cut-at TIME's" \
  "$storlab" sim "${job[@]}" --fault '1s: power-cut'
expect_refused "flush" "flush is not a fault" "$storlab" sim "${job[@]}" --fault '1s: flush'
expect_refused "no node" "--fault '1s: fail disk.9': fail: no node 'disk.9' in stack" \
  "$storlab" sim "${job[@]}" --fault '1s: fail disk.9'
expect_refused "media-error on a ram disk" "media errors are a faults node's" \
  "$storlab" sim "${job[@]}" --fault '1s: media-error disk.0 0+4KiB'
expect_refused "with --repeat" "--fault: one run of fio jobs" \
  "$storlab" sim "${job[@]}" --fault '1s: fail disk.1' --repeat 2
echo "faults: ok"
