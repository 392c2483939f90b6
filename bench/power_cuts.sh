#!/usr/bin/env bash
# Power cuts at scale (issue 18): N verified cuts of a small fio job on every
# catalog stack, each cut checked by the oracle in a copy of the process
# (workloads/power_cuts.h), in each power_cut mode the stack's devices
# allow. Prints, per stack and mode, the cuts, the blocks checked, the
# allowed and unhonoured losses and the violations (must be 0), and the
# wall time for all of it and per 10^5 cuts. Asserts only that there are
# no violations (exit 1 otherwise).
#
#   bash bench/power_cuts.sh [BUILD_DIR] [CUTS_PER_STACK]   (default: build, 6000: 17 stacks x 6000 = 102000 cuts)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
cuts=${2:-6000}
storlab=$build/cli/storlab
[[ -x $storlab ]] || { echo "power_cuts.sh: $storlab not built" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
job=(--name=w --rw=randrw --bs=4k --size=1m --ioengine=libaio --iodepth=4 --fsync=8
     --number_ios=3000)
stacks=$(ls "$src"/sim/profile/catalog | sed "s/\.toml$//")
t0=$(date +%s.%N)
for s in $stacks; do
  for direct in 1 0; do
    "$storlab" sim --stack "$s" "${job[@]}" --direct=$direct --power-cuts=$((cuts / 2)) \
      --output-format=json > "$tmp/$s.$direct.json" 2> "$tmp/err" ||
      { [[ $? == 1 ]] || { cat "$tmp/err" >&2; exit 2; }; }
  done
done
t1=$(date +%s.%N)
times > "$tmp/times"  # the shell's, then its children's user and system time
cpu=$(tail -1 "$tmp/times")
python3 - "$tmp" "$t0" "$t1" "$cpu" <<'PY'
import glob, json, os, re, sys
tmp, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
def secs(t):
    m = re.match(r"(\d+)m([\d.]+)s", t)
    return int(m.group(1)) * 60 + float(m.group(2))
cpu = sum(secs(t) for t in sys.argv[4].split())
tot = dict(cuts=0, blocks_checked=0, lost_allowed=0, lost_unhonoured=0, violations=0, read_errors=0)
print(f"{'stack':24} {'direct':>6} {'cuts':>6} {'blocks':>10} {'lost ok':>9} {'unhonoured':>10} {'viol':>5}  breaks")
for f in sorted(glob.glob(os.path.join(tmp, '*.json'))):
    stack, direct = os.path.basename(f)[:-5].rsplit('.', 1)
    o = json.load(open(f))['storlab']['oracle']
    for k in tot: tot[k] += o[k]
    print(f"{stack:24} {direct:>6} {o['cuts']:>6} {o['blocks_checked']:>10} {o['lost_allowed']:>9} "
          f"{o['lost_unhonoured']:>10} {o['violations'] + o['read_errors']:>5}  {','.join(o['unhonoured_by'])}")
wall = t1 - t0
print(f"\ntotal: {tot['cuts']} cuts, {tot['blocks_checked']} block checks, {tot['lost_allowed']} allowed "
      f"losses, {tot['lost_unhonoured']} unhonoured, {tot['violations']} violations, "
      f"{tot['read_errors']} read errors")
print(f"wall time {wall:.1f} s on {os.cpu_count()} cores: {wall / tot['cuts'] * 1e5:.1f} s per 10^5 cuts; "
      f"CPU time {cpu:.1f} s ({cpu / tot['cuts'] * 1e5 / os.cpu_count():.1f} s per 10^5 cuts on "
      f"{os.cpu_count()} cores with nothing else running)")
sys.exit(1 if tot['violations'] or tot['read_errors'] else 0)
PY
