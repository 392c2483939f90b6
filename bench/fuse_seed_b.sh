#!/usr/bin/env bash
# The seeds' test B (workloads/jobs/seed-b.fio: 16 jobs x 64 KiB posixaio
# random writes, QD16, end_fsync) with the real fio and the real kernel's
# page cache, on nas-1gbe-raid5 mounted in tree mode, runtime shortened to
# 20 s, beside `storlab sim`'s virtual-time figure for the same job:
#   1. --writeback-cache, bdi max_ratio raised to 100 (an NFS client's bdi)
#   2. the same with size=64m (16 x 64 MiB = 1 GiB, so that the end_fsync
#      tail is ~9 s as in shared/reference/measured-here.md, not ~35 s)
#   3. --direct=1 (the page cache bypassed)
#   4. the bdi at the FUSE default (max_ratio 1, strict_limit 1)
# Prints MB/s, the multiple of the 1GbE payload (117.7 MB/s) and the
# end_fsync tail (the job's run time past its 20 s). Needs root and fio;
# about 3 minutes. Not a test: a benchmark (figures vary with the machine).
#   bash bench/fuse_seed_b.sh [build/release/cli/storlab]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
storlab=${1:-$root/build/release/cli/storlab}
link=117.7
work=$(mktemp -d /tmp/storlab-seedb.XXXXXX)
mnt=$work/mnt
mkdir -p "$mnt"
cleanup() {
  mountpoint -q "$mnt" && { fusermount3 -u "$mnt" || umount -l "$mnt"; }
  rm -rf "$work"
}
trap cleanup EXIT
sed 's/^runtime=60$/runtime=20/' "$root/workloads/jobs/seed-b.fio" >"$work/seed-b-20s.fio"
sed 's/^size=256m$/size=64m/' "$work/seed-b-20s.fio" >"$work/seed-b-20s-64m.fio"

# fio JSON -> "MB/s multiple tail_s"
figures() {
  python3 - "$1" "$link" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
w = j["jobs"][0]["write"]
mbs = w["bw_bytes"] / 1e6
print("%.1f %.1f %.1f" % (mbs, mbs / float(sys.argv[2]), max(0, w["runtime"] - 20000) / 1000))
PY
}
row() { printf '%-44s %9s %7s %10s\n' "$@"; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
row "run" "MB/s" "x link" "fsync tail"
"$storlab" sim --stack nas-1gbe-raid5 "$work/seed-b-20s.fio" --group_reporting \
  --output-format=json >"$work/sim.json" 2>/dev/null
read -r mbs mult tail < <(figures "$work/sim.json")
row "storlab sim (virtual time)" "$mbs" "$mult" "${tail}s"
"$storlab" sim --stack nas-1gbe-raid5 "$work/seed-b-20s-64m.fio" --group_reporting \
  --output-format=json >"$work/sim64.json" 2>/dev/null
read -r mbs mult tail < <(figures "$work/sim64.json")
row "  the same, size=64m (1 GiB in all)" "$mbs" "$mult" "${tail}s"
"$storlab" sim --stack nas-1gbe-raid5 "$work/seed-b-20s.fio" --group_reporting --direct=1 \
  --output-format=json >"$work/simd.json" 2>/dev/null
read -r mbs mult tail < <(figures "$work/simd.json")
row "storlab sim --direct=1" "$mbs" "$mult" "${tail}s"

run() {  # NAME JOB MOUNT-ARGS -- FIO-ARGS
  local name=$1 job=$2 m=() f=()
  shift 2
  while [[ $1 != -- ]]; do m+=("$1"); shift; done
  shift
  f=("$@")
  "$storlab" mount --stack nas-1gbe-raid5 --tree --store none "${m[@]}" "$mnt" >"$work/mount.out"
  (cd "$work" && fio "$work/$job" --directory="$mnt" --group_reporting \
    --output-format=json "${f[@]}" >"$work/run.json")
  read -r mbs mult tail < <(figures "$work/run.json")
  row "$name" "$mbs" "$mult" "${tail}s"
  echo "    ($(grep -oE 'bdi [0-9]+:[0-9]+: [^(]*' "$work/mount.out"| sed 's/ *$//'))"
  "$storlab" umount "$mnt" >/dev/null
}
j=seed-b-20s.fio
run "real fio, --writeback-cache, bdi 100 %" $j --writeback-cache --bdi-max-ratio 100 --
run "  the same, size=64m (1 GiB in all)" seed-b-20s-64m.fio --writeback-cache --bdi-max-ratio 100 --
run "real fio, --direct=1" $j --writeback-cache --bdi-max-ratio 100 -- --direct=1
run "real fio, --writeback-cache, bdi default" $j --writeback-cache --
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
