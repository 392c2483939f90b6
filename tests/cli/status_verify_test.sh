#!/usr/bin/env bash
# --status-interval and verify= from the command line (issue 17): periodic
# reports in simulated time (terse lines, JSON documents one after another)
# whose last one is the report of the same run without the option; a block
# corrupted between its write and the verify pass is fio's verify error
# (stderr, "error" : 84, exit 1); bad values are errors naming the option.
#   tests/cli/status_verify_test.sh STORLAB_BINARY
set -uo pipefail
storlab=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"

job=(--stack sata-ssd --name=s --size=64m --bs=4k --rw=randread --direct=1 --ioengine=libaio
  --iodepth=4 --runtime=3 --time_based)
"$storlab" sim "${job[@]}" --status-interval=1 --output-format=terse > "$tmp/t" 2> "$tmp/e" ||
  fail "terse status: $(head -c 300 "$tmp/e")"
# One line a second of the 3 s run, the last at its end, then the final report.
[[ $(wc -l < "$tmp/t") == 4 ]] || fail "terse status lines: $(wc -l < "$tmp/t")"
runtimes=$(cut -d';' -f9 "$tmp/t" | tr '\n' ' ')
[[ $runtimes == "1000 2000 3000 3001 " ]] || fail "terse runtimes: $runtimes"
"$storlab" sim "${job[@]}" --output-format=terse > "$tmp/t1" || fail "terse run"
tail -1 "$tmp/t" | cmp -s - "$tmp/t1" || fail "the last terse report differs from a plain run"

"$storlab" sim "${job[@]}" --status-interval=500ms --output-format=json > "$tmp/j" || fail "json"
"$storlab" sim "${job[@]}" --output-format=json > "$tmp/j1" || fail "json run"
python3 - "$tmp/j" "$tmp/j1" << 'PY' || fail "json status reports"
import json, sys
text, docs, dec, i = open(sys.argv[1]).read(), [], json.JSONDecoder(), 0
while i < len(text):
    if text[i].isspace():
        i += 1
        continue
    d, i = dec.raw_decode(text, i)
    docs.append(d)
rt = [d["jobs"][0]["read"]["runtime"] for d in docs]
assert rt == sorted(rt) and len(docs) == 3000 // 500 + 1, rt
ios = [d["jobs"][0]["read"]["total_ios"] for d in docs]
assert ios == sorted(ios) and ios[0] > 0, ios
plain = json.load(open(sys.argv[2]))
assert docs[-1]["jobs"] == plain["jobs"], "last report differs from a plain run"
print("json status reports:", rt)
PY

expect_error "status-interval 0" "--status-interval: '0'" "$storlab" sim --name=x --size=1m \
  --status-interval=0
expect_error "status-interval junk" "--status-interval: 'soon'" "$storlab" sim --name=x \
  --size=1m --status-interval=soon

# verify: clean, then a block corrupted after its write, before its read-back.
vjob=(--stack sata-ssd --name=w --size=16m --bs=4k --rw=write --direct=1 --ioengine=libaio
  --iodepth=4 --verify=crc32c --output-format=json)
"$storlab" sim "${vjob[@]}" > "$tmp/v" 2> "$tmp/e" || fail "verify run: $(head -c 300 "$tmp/e")"
grep -q '"error" : 0' "$tmp/v" || fail "clean verify run has an error"
"$storlab" sim "${vjob[@]}" --fault '20ms: corrupt sata 1MiB' > "$tmp/v" 2> "$tmp/e"
[[ $? == 1 ]] || fail "corrupted verify run: exit status not 1"
grep -q 'verify: bad magic header ac35, wanted acca at file w.0.0 offset 1048576' "$tmp/e" ||
  fail "verify message: $(head -c 300 "$tmp/e")"
grep -q '"error" : 84' "$tmp/v" || fail "verify error not 84 in JSON"
expect_error "verify md6" "'md6' is not one of" "$storlab" sim --stack ram --name=x --size=1m \
  --rw=write --verify=md6
expect_error "verify_pattern" "verify_pattern='0xq'" "$storlab" sim --stack ram --name=x --size=1m \
  --rw=write --verify=pattern --verify_pattern=0xq
echo "status-interval and verify: ok"
