#!/usr/bin/env bash
# Speed of `storlab sim`: simulated I/Os per second of wall time (and per
# second of CPU time, steadier on a shared machine) on one core, for
#   1. nvme-gen3, 4 KiB random reads, libaio, O_DIRECT, iodepth 32
#   2. nas-1gbe-raid5, the seeds' test B (16 jobs x 64 KiB random writes,
#      posixaio, buffered, 60 s time_based, end_fsync) on the demo's host
# and, as the reference measured in the same run on the same core, real
# fio's own null engine (`fio --ioengine=null`: fio's per-I/O cost with no
# device; issue 15 §5), with each simulation's ratio to it.
# Prints figures; asserts nothing (docs/sim.md keeps the last ones).
#
#   bash bench/sim_speed.sh [BUILD_DIR]      (default: build)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
storlab=$build/cli/storlab
[[ -x $storlab ]] || { echo "sim_speed.sh: $storlab not built" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pin=()
command -v taskset >/dev/null && pin=(taskset -c 0)

# run NAME STORLAB-SIM-ARGS...: one core (taskset), JSON output; counts
# every job's read+write I/Os and the layout's, divides by wall and CPU time.
run() {
  local name=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$tmp/time" "${pin[@]}" "$storlab" sim "$@" \
    --output-format=json >"$tmp/out.json" 2>/dev/null
  t1=$(date +%s.%N)
  python3 - "$name" "$t0" "$t1" "$tmp/time" "$tmp/out.json" <<'EOF'
import json, sys
name, t0, t1, tfile, out = sys.argv[1:]
wall = float(t1) - float(t0)
usr, sys_ = (float(x) for x in open(tfile).read().split()[-2:])
d = json.load(open(out))
ios = sum(j[k]["total_ios"] for j in d["jobs"] for k in ("read", "write"))
sim_s = max(j["job_runtime"] for j in d["jobs"]) / 1e3
per_cpu = ios / (usr + sys_)
line = (f"{name}: {ios} I/Os ({sim_s:.1f} s simulated) in {wall:.2f} s wall, "
        f"{usr + sys_:.2f} s CPU: {ios / wall / 1e6:.2f} M I/Os per wall second, "
        f"{per_cpu / 1e6:.2f} M per CPU second")
try:
    ref = float(open(tfile + ".ref").read())
    line += f", {per_cpu / ref:.2f}x fio's null engine"
except (OSError, ValueError):
    pass
print(line)
EOF
}

# The reference: fio's null engine (engines/null.c: every I/O completes at
# once) with the first run's job on the same core; its I/Os per CPU second
# go to $tmp/time.ref for the ratios.
if command -v fio >/dev/null; then
  /usr/bin/time -f '%U %S' -o "$tmp/time" "${pin[@]}" fio --name=t --ioengine=null \
    --rw=randread --bs=4k --iodepth=32 --size=1g --runtime=10 --time_based \
    --output-format=json >"$tmp/fio.json" 2>/dev/null
  python3 - "$tmp/time" "$tmp/fio.json" <<'EOF'
import json, sys
tfile, out = sys.argv[1:]
usr, sys_ = (float(x) for x in open(tfile).read().split()[-2:])
d = json.load(open(out))
ios = d["jobs"][0]["read"]["total_ios"]
wall = d["jobs"][0]["job_runtime"] / 1e3
print(f"{d['fio version']} --ioengine=null 4K randread QD32 (the reference): {ios} I/Os "
      f"in {wall:.2f} s, {usr + sys_:.2f} s CPU: {ios / wall / 1e6:.2f} M I/Os per wall "
      f"second, {ios / (usr + sys_) / 1e6:.2f} M per CPU second")
open(tfile + ".ref", "w").write(str(ios / (usr + sys_)))
EOF
else
  echo "fio --ioengine=null: fio is not installed (no reference, no ratios)"
fi

run "nvme-gen3 4K randread QD32" --stack nvme-gen3 --name=t --rw=randread --bs=4k \
  --iodepth=32 --ioengine=libaio --direct=1 --size=1g --runtime=10 --time_based
if "$storlab" stacks 2>/dev/null | grep -q '^nas-1gbe-raid5\b'; then
  # On the demo's host (workloads/demo.h: 32 GiB), where test B inflates.
  run "nas-1gbe-raid5 seed test B" --stack nas-1gbe-raid5 --host-mem 32GiB \
    "$src/workloads/jobs/seed-b.fio"
else
  echo "nas-1gbe-raid5 seed test B: the stack is not in the catalog (storlab stacks)"
fi
