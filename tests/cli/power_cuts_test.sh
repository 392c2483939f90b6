#!/usr/bin/env bash
# storlab sim --power-cut-at / --power-cuts (issue 18): the oracle's counts in
# the JSON (storlab.oracle) and the paragraph in the normal output, the
# exit status, determinism, a stack that breaks the promise by design, and
# bad input.
#   tests/cli/power_cuts_test.sh STORLAB_BINARY
set -uo pipefail
storlab=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
job=(--name=w --rw=randwrite --bs=4k --size=16m --runtime=2 --time_based --ioengine=libaio
     --iodepth=8)
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['storlab']['oracle'][sys.argv[2]])" "$@"; }

# One cut, in JSON: counted, no violations, the cut's time from the jobs' start.
"$storlab" sim --stack hdd-7200 "${job[@]}" --direct=1 --power-cut-at=1500ms \
  --output-format=json > "$tmp/one.json" 2> "$tmp/err" || fail "one cut: $(cat "$tmp/err")"
[[ $(field "$tmp/one.json" cuts) == 1 ]] || fail "one cut: cuts != 1"
[[ $(field "$tmp/one.json" violations) == 0 ]] || fail "one cut: violations"
python3 - "$tmp/one.json" <<'PY' || fail "one cut: per_cut"
import json, sys
o = json.load(open(sys.argv[1]))['storlab']['oracle']
c = o['per_cut'][0]
assert c['at_ns'] == 1500000000, c
assert c['blocks_checked'] == c['blocks_newest'] + c['blocks_older'] > 0, c
assert o['lost_allowed'] > 0, "the drive's write cache held unflushed writes"
assert [h['node'] for h in c['volatile']] == ['hdd'] and c['volatile'][0]['bytes'] > 0, c
PY

# Many cuts, normal output: the paragraph; the same again byte for byte.
"$storlab" sim --stack sata-ssd "${job[@]}" --direct=0 --fsync=32 --power-cuts=40 \
  > "$tmp/a.txt" 2> "$tmp/err" || fail "40 cuts: $(cat "$tmp/err")"
grep -q "storlab: 40 power cuts\..*, 0 violations, 0 read errors\." "$tmp/a.txt" ||
  fail "40 cuts: no paragraph: $(tail -3 "$tmp/a.txt")"
"$storlab" sim --stack sata-ssd "${job[@]}" --direct=0 --fsync=32 --power-cuts=40 \
  > "$tmp/b.txt" 2> /dev/null
cmp -s "$tmp/a.txt" "$tmp/b.txt" || fail "40 cuts: two runs differ"

# The NAS exported async loses fsync'ed data by design: lost_unhonoured,
# named, not violations; exit status 0.
"$storlab" sim --stack nas-1gbe-raid5 "${job[@]}" --direct=0 --fsync=16 --power-cuts=10 \
  --output-format=json > "$tmp/nas.json" 2> "$tmp/err" || fail "nas: $(cat "$tmp/err")"
[[ $(field "$tmp/nas.json" violations) == 0 ]] || fail "nas: violations"
(( $(field "$tmp/nas.json" lost_unhonoured) > 0 )) || fail "nas: no lost_unhonoured"
[[ $(field "$tmp/nas.json" unhonoured_by) == "['nfs']" ]] || fail "nas: breaker not named"

# A device mode from the stack file: torn writes in the drive's cache.
cat > "$tmp/torn.toml" <<'TOML'
[node.disk]
type = "hdd"
capacity = "1TB"
power_cut = "torn"
TOML
"$storlab" sim --stack "$tmp/torn.toml" "${job[@]}" --direct=1 --power-cuts=20 \
  > "$tmp/torn.txt" 2> "$tmp/err" || fail "torn: $(cat "$tmp/err")"
grep -q ", 0 violations, 0 read errors\." "$tmp/torn.txt" || fail "torn: $(tail -2 "$tmp/torn.txt")"

# Bad input: clear errors, before any run.
expect_error "--power-cut-at=soon" "--power-cut-at" "$storlab" sim --stack ram "${job[@]}" \
  --power-cut-at=soon
expect_error "--power-cuts=0" "--power-cuts: '0'" "$storlab" sim --stack ram "${job[@]}" \
  --power-cuts=0
expect_error "both" "give one of them" "$storlab" sim --stack ram "${job[@]}" --power-cuts=2 \
  --power-cut-at=1
expect_error "--repeat" "not with --repeat" "$storlab" sim --stack ram "${job[@]}" \
  --power-cuts=2 --repeat 2
printf '[node.disk]\ntype = "hdd"\npower_cut = "half"\n' > "$tmp/bad.toml"
expect_error "power_cut = half" "power_cut" "$storlab" sim --stack "$tmp/bad.toml" "${job[@]}"
echo "power cuts: ok"
