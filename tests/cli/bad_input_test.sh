#!/usr/bin/env bash
# Bad input on the command line (issue 14): each case fails with a clear
# message and a non-zero status, before any long run, and quotes nothing
# from files that are not what they should be.
#   tests/cli/bad_input_test.sh STORLAB_BINARY [--no-demo]
# (--no-demo: skip the short demo run, for the slow sanitizer builds)
set -uo pipefail
storlab=$1
demo=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
job=(--name=t --rw=write --size=1m)

expect_error "--host-mem=0" "\[host\], key 'mem': size 0 is less than the minimum" \
  "$storlab" sim --stack ram --host-mem=0 "${job[@]}"
expect_error "--host-mem=1k" "key 'mem'" "$storlab" sim --stack ram --host-mem=1k "${job[@]}"
expect_error "--host-cores=0" "key 'cores'" "$storlab" sim --stack ram --host-cores=0 "${job[@]}"
expect_error "--stack nosuch" "'nosuch' is neither a catalog stack" \
  "$storlab" sim --stack nosuch "${job[@]}"
expect_error "mount --stack nosuch" "'nosuch' is neither a catalog stack" \
  "$storlab" mount --stack nosuch "$tmp/mnt"
expect_error "mount --state in no folder" "the folder '$tmp/none' does not exist" \
  "$storlab" mount --stack ram --state "$tmp/none/state" "$tmp/mnt"
expect_error "demo --host-mem 0" "key 'mem'" "$storlab" demo --host-mem 0
expect_error "demo --runtime 0" "expected seconds" "$storlab" demo --runtime 0
expect_error "demo --runtime -1" "expected seconds" "$storlab" demo --runtime -1
expect_error "demo nope" "no scenario 'nope' (there are: fsync" "$storlab" demo nope
expect_error "demo fsync --csv" "a scenario takes only --seed" "$storlab" demo fsync --csv /tmp/x.csv
start=$SECONDS
expect_error "demo --csv" "cannot write '/nonexistent/x.csv'" "$storlab" demo --csv /nonexistent/x.csv
expect_error "demo --plot" "cannot create" "$storlab" demo --plot /proc/no/such/dir
(( SECONDS - start < 5 )) || fail "bad output paths were found only after running the demo"
expect_error "--prefill 1x" "--prefill: '1x' (expected a percentage from 0 to 100" \
  "$storlab" sim --stack ram --prefill 1x "${job[@]}"
expect_error "--prefill 101" "--prefill: '101' (expected a percentage" \
  "$storlab" sim --stack ram --prefill 101 "${job[@]}"
expect_error "--reboot without --state" "--reboot needs --state DIR" \
  "$storlab" sim --stack ram --reboot "${job[@]}"
expect_error "--state with --repeat" "--state: one run of fio jobs" \
  "$storlab" sim --stack ram --state "$tmp/s" --repeat 2 "${job[@]}"
mkdir "$tmp/mine" && echo mine >"$tmp/mine/notes"
expect_error "--state on a directory that is not a state" "not a storlab state (no readable MANIFEST" \
  "$storlab" sim --stack ram --state "$tmp/mine" "${job[@]}"
[[ $(cat "$tmp/mine/notes") == mine ]] || fail "--state changed a directory that is not a state"
expect_error '--iozone ""' "give iozone's arguments" "$storlab" sim --stack ram --iozone ""
mkdir "$tmp/mnt"
expect_error "mount --compensate nonsense" "compensate: expected auto, off or a duration" \
  "$storlab" mount --stack ram --compensate nonsense "$tmp/mnt"
expect_error "mount --compensate 2s" "compensate: a duration from 0 to 1s" \
  "$storlab" mount --stack ram --compensate 2s "$tmp/mnt"
expect_error "mount --no-oracle=yes" "does not take any arguments" \
  "$storlab" mount --stack ram --no-oracle=yes "$tmp/mnt"
expect_error "--bandwidth-log" "command-line option that storlab sim does not support" \
  "$storlab" sim --stack ram --bandwidth-log "${job[@]}"
expect_error "--output-format=xml" "'xml' is not an output format" \
  "$storlab" sim --stack ram --output-format=json,xml "${job[@]}"
expect_error "--terse-version=6" "--terse-version: '6' (expected 2, 3, 4 or 5)" \
  "$storlab" sim --stack ram --terse-version=6 "${job[@]}"
expect_error "--percentile_list=50:x" "option 'percentile_list': '50:x': 'x' is not a number" \
  "$storlab" sim --stack ram "${job[@]}" --percentile_list=50:x
expect_error "--write_bw_log into a missing directory" "cannot write log '/nonexistent/l_bw.1.log'" \
  "$storlab" sim --stack ram "${job[@]}" --write_bw_log=/nonexistent/l
expect_error "filename=::::" "names no file" "$storlab" sim --stack ram "${job[@]}" --filename=::::
expect_error "--output" "cannot write '/nonexistent/o.txt'" \
  "$storlab" sim --stack ram --output /nonexistent/o.txt "${job[@]}"
expect_error "probe --span 1k" "holds no 4 KiB block" "$storlab" stacks probe --span 1k ram

# --output writes the report to the file, nothing to stdout.
"$storlab" sim --stack ram --output "$tmp/o.txt" "${job[@]}" > "$tmp/stdout" || fail "--output"
[[ ! -s $tmp/stdout ]] || fail "--output also wrote to stdout"
grep -q "WRITE: bw=" "$tmp/o.txt" || fail "--output file lacks the report"

# A command-line option a job file overrides gets a note.
printf '[j]\nrw=write\nsize=1m\nruntime=60s\n' > "$tmp/j.fio"
"$storlab" sim --stack ram --runtime=20s "$tmp/j.fio" > /dev/null 2> "$tmp/err" || fail "override"
grep -q "note: --runtime=20s is overridden by $tmp/j.fio:4 (runtime=60s)" "$tmp/err" ||
  fail "no note for the overridden --runtime: $(cat "$tmp/err")"

# Files that are not stack or job files: nothing of them is printed.
printf 'root:$6$SECRETHASH:19000:0:99999:7:::\n' > "$tmp/shadow"
expect_error "stacks show shadow" "not a TOML stack file" "$storlab" stacks show "$tmp/shadow"
! grep -q SECRET "$tmp/err" || fail "the shadow file was quoted: $(cat "$tmp/err")"
printf '[node.a]\nuse = "%s"\n' "$tmp/shadow" > "$tmp/use.toml"
expect_error "use = shadow" "not a TOML stack file" "$storlab" stacks show "$tmp/use.toml"
! grep -q SECRET "$tmp/err" || fail "use: the shadow file was quoted"
printf '[j]\ninclude %s\nsize=1m\n' "$tmp/shadow" > "$tmp/inc.fio"
expect_error "include shadow" "not a job file" "$storlab" sim --stack ram "$tmp/inc.fio"
! grep -q SECRET "$tmp/err" || fail "include: the shadow file was quoted"

# Stack files toml11 cannot take: an error, not a crash.
python3 -c "print('x = ' + '['*10000 + ']'*10000)" > "$tmp/deep.toml"
expect_error "10,000 nested arrays" "deep.toml:1: nested more than 32 levels" \
  "$storlab" stacks show "$tmp/deep.toml"
printf '[node.n]\ntype = "nfs"\nchild = "d"\nlink_rate = "0MB/s"\n[node.d]\ntype = "ram"\n' \
  > "$tmp/nfs0.toml"
expect_error "link_rate 0" "nfs0.toml:4: node 'n', key 'link_rate': must be positive" \
  "$storlab" sim --stack "$tmp/nfs0.toml" "${job[@]}" --end_fsync=1

# Seeds: the same seed gives the same bytes; another seed another result;
# --repeat with --seed-step summarises the spread.
hdd=(--stack hdd-7200 --name=t --rw=randread --direct=1 --size=256m --runtime=1 --time_based)
"$storlab" sim "${hdd[@]}" --output-format=json --seed 7 > "$tmp/s7a" &&
  "$storlab" sim "${hdd[@]}" --output-format=json --seed 7 > "$tmp/s7b" || fail "seed runs"
cmp -s "$tmp/s7a" "$tmp/s7b" || fail "--seed 7 twice gave different output"
"$storlab" sim "${hdd[@]}" --output-format=json --seed 1 > "$tmp/s1"
diff <(grep -v '"seed"' "$tmp/s1") <(grep -v '"seed"' "$tmp/s7a") > /dev/null &&
  fail "seeds 1 and 7 gave the same figures"
"$storlab" sim "${hdd[@]}" --repeat 3 --seed-step > "$tmp/rep" ||
  fail "--repeat 3 --seed-step"
grep -q "3 runs, seeds 1 to 3 (step 1)" "$tmp/rep" || fail "no summary: $(tail -3 "$tmp/rep")"
grep -q "group 0 READ  mean" "$tmp/rep" || fail "no group line: $(tail -3 "$tmp/rep")"

# The demo's header says the runtime it ran.
if [[ $demo != --no-demo ]]; then
  "$storlab" demo --runtime 0.2 > "$tmp/demo" 2> /dev/null || fail "demo --runtime 0.2"
  grep -q "each 0.2 s (--runtime" "$tmp/demo" || fail "demo header: $(head -2 "$tmp/demo")"
fi
echo "bad_input_test: ok"
