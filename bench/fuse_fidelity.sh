#!/usr/bin/env bash
# The FUSE export's fidelity and ceiling, in one run (issue 12):
#   fidelity  fio through the image file of `storlab mount --direct-io`
#             against `storlab sim --direct=1`, same job: 4 KiB random reads
#             at QD1 and QD32 (libaio, 10 s) over the first GiB, written
#             once first as `storlab sim` lays the file out (an SSD model
#             answers a never-written block at another speed), on hdd-7200,
#             sata-ssd, usb3-bot-hdd, sata-ssd-dramless: IOPS and
#             median-latency ratios, FUSE / sim (target 1 +- 5 %): the
#             median of fio's completion latency (clat, from io_submit's
#             return) and, in `lat p50`, of its total (from io_submit's
#             call: through FUSE part of the request is served inside
#             io_submit, which `storlab sim` models as libaio's 1.1 us).
#             First, the transport's floor: the QD1 job through the passthrough
#             below (no device), and the QD32 job; each row gives how
#             many times slower the model is than that floor (sim/floor:
#             at QD1 the model's median latency over the floor's, at QD32
#             the floor's IOPS over the model's): near 1 or below, the row
#             measures the transport, not the model. At QD1 also
#             `cap`: the IOPS ratio a FUSE server whose completion latency
#             matched the model's exactly would get, given what fio spends
#             a request outside its completion latency through FUSE (on
#             the floor: its cycle minus its mean clat; in `storlab
#             sim` 1.3 us, libaio's submission and fio's bookkeeping): the
#             model's cycle over its mean clat plus that. And where the
#             model answers in under a millisecond, the same QD1 job
#             through the passthrough sleeping that long in each request
#             (fuse_passthrough's SLEEP_US: a FUSE server that blocks for
#             the device's latency, without compensation), against sim.
#   ceiling   the `ram` stack's image against a minimal libfuse passthrough
#             of a tmpfs file (bench/fuse_passthrough.cc), same jobs:
#             4 KiB random read and write QD32, 1 MiB sequential read QD8,
#             with the default store (memory, the oracle on), with the data
#             kept but no oracle (--no-oracle: the passthrough's own work,
#             the like-for-like figure) and with none (timing only);
#             interleaved, medians of 3; ours / theirs (target >= 0.9).
# Needs root and fio; about 14 minutes at 10 s a job, 8 at 5 s. Prints the load before and after,
# the CPU the hypervisor stole during each fidelity job
# (bench/cpu_steal.sh), and how often a wake-up across CPUs stalled the
# waker (bench/wake_stall.cc: steal time does not show it): run it on a
# machine as quiet as you can get.
#   bash bench/fuse_fidelity.sh [BUILD_DIR] [SECONDS]
# HALT_POLL_NS=N in the environment: idle vCPUs poll N ns before they
# halt, for the run (bench/halt_poll.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
secs=${2:-10}
storlab=$build/cli/storlab
passthrough=$build/bench/storlab_fuse_passthrough
source "$root/bench/cpu_steal.sh"
source "$root/bench/halt_poll.sh"
work=$(mktemp -d /tmp/storlab-fidelity.XXXXXX)
mnt=$work/mnt
mkdir -p "$mnt"
pt_pid=
cleanup() {
  mountpoint -q "$mnt" && { fusermount3 -u "$mnt" || umount -l "$mnt"; }
  mountpoint -q "$work/mnt2" && { fusermount3 -u "$work/mnt2" || umount -l "$work/mnt2"; }
  mountpoint -q "$work/mnt3" && { fusermount3 -u "$work/mnt3" || umount -l "$work/mnt3"; }
  [[ -n $pt_pid ]] && wait "$pt_pid" 2>/dev/null
  rm -rf "$work" /dev/shm/storlab-passthrough.img /dev/shm/storlab-sleeper.img
  halt_poll_restore
}
trap cleanup EXIT
halt_poll_apply

# fio JSON -> "IOPS clat_p50_us lat_p50_us clat_mean_us" of the job's
# reads (or writes): the completion latency's median and the total's
# (submission included; fio's lat_percentiles), and the completion
# latency's mean.
figures() {
  python3 - "$1" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0][sys.argv[2]]
p50 = lambda k: j[k]["percentile"]["50.000000"] / 1e3
print("%.1f %.1f %.1f %.1f" % (j["iops"], p50("clat_ns"), p50("lat_ns"), j["clat_ns"]["mean"] / 1e3))
PY
}
ratio() { python3 -c "import sys; a, b = map(float, sys.argv[1:]); print('%.3f' % (a / b) if b else '-')" "$1" "$2"; }

job() {  # QD BS RW [SIZE]
  echo --name=t --rw=$3 --bs=$2 --iodepth=$1 --ioengine=libaio --direct=1 --size=${4:-8g} \
    --runtime=$secs --time_based --ramp_time=1 --lat_percentiles=1 --output-format=json
}

# sleeper US SIM_IOPS SIM_P50 SIM_LAT_P50: the QD1 job through the passthrough sleeping
# US microseconds a request (skipped from 1 ms up: the transport is then
# a small part of the latency).
sleeper() {
  (($1 < 1000)) || return 0
  mkdir -p "$work/mnt3"
  truncate -s 1g /dev/shm/storlab-sleeper.img
  "$passthrough" /dev/shm/storlab-sleeper.img "$work/mnt3" 4 "$1" &
  local pid=$!
  for i in $(seq 100); do [[ -e $work/mnt3/img ]] && break; sleep 0.05; done
  fio $(job 1 4k randread 1g) --filename="$work/mnt3/img" >"$work/sleeper.json"
  fusermount3 -u "$work/mnt3"
  wait "$pid"
  rm -f /dev/shm/storlab-sleeper.img
  read -r fi fl ft _ < <(figures "$work/sleeper.json" read)
  printf '%-18s %4s %10s %10s %7s %9s %9s %7s %7s\n' "  sleeping ${1}us" 1 "$fi" "$2" \
    "$(ratio "$fi" "$2")" "${fl}us" "${3}us" "$(ratio "$fl" "$3")" "$(ratio "$ft" "$4")"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
# Whether this machine stalls a thread that wakes another on an idle CPU
# (bench/wake_stall.cc): where it does, the QD1 rows lose that time in
# fio's submission, which no compensation can see.
"$build/bench/storlab_bench_wake_stall" 1500 50 | sed 's/^/platform: /'
# The passthrough serves the floor now and the ceiling at the end.
mnt2=$work/mnt2
mkdir -p "$mnt2"
truncate -s 8g /dev/shm/storlab-passthrough.img
"$passthrough" /dev/shm/storlab-passthrough.img "$mnt2" &
pt_pid=$!
for i in $(seq 100); do [[ -e $mnt2/img ]] && break; sleep 0.05; done
# (Never written: the ceiling below starts from a fresh file, as before.)
fio $(job 1 4k randread 1g) --filename="$mnt2/img" >"$work/floor.json"
read -r floor_iops floor_p50 _ floor_mean < <(figures "$work/floor.json" read)
# What fio spends a request outside its completion latency (submission,
# reaping, its own bookkeeping): the cycle minus the mean clat.
outside=$(python3 -c "import sys; i, m = map(float, sys.argv[1:]); print('%.1f' % (1e6 / i - m))" \
  "$floor_iops" "$floor_mean")
echo "transport floor (the passthrough, 4K random read QD1): $floor_iops IOPS, median ${floor_p50}us;" \
  "fio outside its clat ${outside}us a request"
fio $(job 32 4k randread 1g) --filename="$mnt2/img" >"$work/floor32.json"
read -r floor32_iops floor32_p50 _ < <(figures "$work/floor32.json" read)
echo "transport floor (the passthrough, 4K random read QD32): $floor32_iops IOPS, median ${floor32_p50}us"
printf '%-18s %4s %10s %10s %7s %9s %9s %7s %7s %5s %9s %5s\n' stack QD "FUSE IOPS" "sim IOPS" ratio \
  "FUSE p50" "sim p50" ratio "lat p50" steal sim/floor cap
for stack in hdd-7200 sata-ssd usb3-bot-hdd sata-ssd-dramless; do
  "$storlab" mount --stack "$stack" --direct-io "$mnt" >/dev/null 2>&1
  img=$(ls "$mnt"/*.img | head -1)
  fio --name=prep --rw=write --bs=1m --iodepth=4 --ioengine=libaio --direct=1 --size=1g \
    --end_fsync=1 --filename="$img" >/dev/null
  for qd in 1 32; do
    "$storlab" sim --stack "$stack" $(job $qd 4k randread 1g) >"$work/sim.json" 2>/dev/null
    cpu_mark
    fio $(job $qd 4k randread 1g) --filename="$img" >"$work/fuse.json"
    steal=$(cpu_steal_percent)
    read -r fi fl ft _ < <(figures "$work/fuse.json" read)
    read -r si sl st sm < <(figures "$work/sim.json" read)
    # How many times slower the model is than the bare transport.
    margin=$(ratio "$floor32_iops" "$si")
    cap=-
    if ((qd == 1)); then
      margin=$(ratio "$sl" "$floor_p50")
      cap=$(python3 -c "import sys; i, m, o = map(float, sys.argv[1:]); print('%.3f' % (1e6 / i / (m + o)))" \
        "$si" "$sm" "$outside")
    fi
    printf '%-18s %4s %10s %10s %7s %9s %9s %7s %7s %4s%% %9s %5s\n' "$stack" "$qd" "$fi" "$si" \
      "$(ratio "$fi" "$si")" "${fl}us" "${sl}us" "$(ratio "$fl" "$sl")" "$(ratio "$ft" "$st")" \
      "$steal" "$margin" "$cap"
    ((qd == 1)) && sleeper "$(printf '%.0f' "$sl")" "$si" "$sl" "$st"
  done
  "$storlab" umount "$mnt" >/dev/null
done

echo
# Both mounted at once, runs interleaved (ours, theirs, ours, ...), the
# median of three of each: the machine's load drifts during a run.
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
printf '%-30s %12s %12s %7s\n' "ceiling: ram (store)" "ours IOPS" "passthrough" ratio
for store in memory no-oracle none; do
  case $store in
    no-oracle) args=(--store memory --no-oracle) ;;
    *) args=(--store "$store") ;;
  esac
  "$storlab" mount --stack ram --direct-io "${args[@]}" "$mnt" >/dev/null 2>&1
  for spec in "32 4k randread read" "32 4k randwrite write" "8 1m read read"; do
    set -- $spec
    a=() b=()
    for rep in 1 2 3; do
      fio $(job $1 $2 $3) --filename="$mnt/ram.img" >"$work/ours.json"
      a+=("$(figures "$work/ours.json" $4 | cut -d' ' -f1)")
      fio $(job $1 $2 $3) --filename="$mnt2/img" >"$work/theirs.json"
      b+=("$(figures "$work/theirs.json" $4 | cut -d' ' -f1)")
    done
    ours=$(median "${a[@]}") theirs=$(median "${b[@]}")
    printf '%-30s %12s %12s %7s\n' "$3 $2 QD$1 ($store)" "$ours" "$theirs" "$(ratio "$ours" "$theirs")"
  done
  "$storlab" umount "$mnt" >/dev/null
done
fusermount3 -u "$mnt2"
wait "$pt_pid"
pt_pid=
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
